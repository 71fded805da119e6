// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x2x2xf32>) -> (tensor<1x2x2x2xf32>) {
  %0 = "tosa.reverse"(%arg0) <{axis = 3 : i32}> : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4xf16>) -> (tensor<4xf16>) {
  %0 = "tosa.reverse"(%arg0) <{axis = 0 : i32}> : (tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

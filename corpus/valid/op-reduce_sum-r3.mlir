// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x4x3xf32>) -> (tensor<4x2x1x3xf32>) {
  %0 = "tosa.reduce_sum"(%arg0) <{axis = 2 : i32}> : (tensor<4x2x4x3xf32>) -> tensor<4x2x1x3xf32>
  return %0 : tensor<4x2x1x3xf32>
}

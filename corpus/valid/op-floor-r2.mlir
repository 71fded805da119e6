// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x3x2x3xf32>) -> (tensor<4x3x3x2x3xf32>) {
  %0 = "tosa.floor"(%arg0) : (tensor<4x3x3x2x3xf32>) -> tensor<4x3x3x2x3xf32>
  return %0 : tensor<4x3x3x2x3xf32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x3xf32>) -> (tensor<1x4x3xf32>) {
  %0 = "tosa.pow"(%arg0, %arg0) : (tensor<1x4x3xf32>, tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
  return %0 : tensor<1x4x3xf32>
}

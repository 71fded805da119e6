// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x2x1x4xf32>) -> (tensor<2x1x2x1x4xf32>) {
  %0 = "tosa.add"(%arg0, %arg0) : (tensor<2x1x2x1x4xf32>, tensor<2x1x2x1x4xf32>) -> tensor<2x1x2x1x4xf32>
  return %0 : tensor<2x1x2x1x4xf32>
}

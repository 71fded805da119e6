// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x1x3xf32>) -> (tensor<3x1x3xf32>) {
  return %arg0 : tensor<3x1x3xf32>
}

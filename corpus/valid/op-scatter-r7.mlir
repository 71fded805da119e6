// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x3xi32>) -> (tensor<2x3x4xf32>) {
  %0 = "tosa.scatter"(%arg0, %arg1, %arg0) : (tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

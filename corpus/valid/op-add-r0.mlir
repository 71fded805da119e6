// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x3xi32>, %arg1: tensor<1x3x1xi32>) -> (tensor<1x3x3xi32>) {
  %0 = "tosa.add"(%arg0, %arg1) : (tensor<1x3x3xi32>, tensor<1x3x1xi32>) -> tensor<1x3x3xi32>
  return %0 : tensor<1x3x3xi32>
}

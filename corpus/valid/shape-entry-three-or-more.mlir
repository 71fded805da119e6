// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x4x3x1x1xi32>, %arg1: tensor<1x1x1x1x1x1xi8>) -> (tensor<1x2x4x3x1x1xi32>, tensor<1x2x4x3x1x1xi32>) {
  %0 = "tosa.bitwise_not"(%arg0) : (tensor<1x2x4x3x1x1xi32>) -> tensor<1x2x4x3x1x1xi32>
  return %0, %0 : tensor<1x2x4x3x1x1xi32>, tensor<1x2x4x3x1x1xi32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x4x1x2xi8>, %arg1: tensor<2x2x1x1x1xi1>, %arg2: tensor<2x2x4x1x2xi8>) -> (tensor<2x2x4x1x2xi8>) {
  %0 = "tosa.select"(%arg1, %arg0, %arg2) : (tensor<2x2x1x1x1xi1>, tensor<2x2x4x1x2xi8>, tensor<2x2x4x1x2xi8>) -> tensor<2x2x4x1x2xi8>
  return %0 : tensor<2x2x4x1x2xi8>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x3xi8>, %arg1: tensor<3x1xi32>, %arg2: tensor<3x1x3xi8>) -> (tensor<3x2x3xi8>) {
  %0 = "tosa.scatter"(%arg0, %arg1, %arg2) : (tensor<3x2x3xi8>, tensor<3x1xi32>, tensor<3x1x3xi8>) -> tensor<3x2x3xi8>
  return %0 : tensor<3x2x3xi8>
}

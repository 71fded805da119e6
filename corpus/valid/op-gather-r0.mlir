// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x1xi8>, %arg1: tensor<3x1xi32>) -> (tensor<3x1x1xi8>) {
  %0 = "tosa.gather"(%arg0, %arg1) : (tensor<3x3x1xi8>, tensor<3x1xi32>) -> tensor<3x1x1xi8>
  return %0 : tensor<3x1x1xi8>
}

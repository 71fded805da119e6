// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3xi8>, %arg1: tensor<1x3xi8>) -> (tensor<4x3xi8>) {
  %0 = "tosa.logical_left_shift"(%arg0, %arg1) : (tensor<4x3xi8>, tensor<1x3xi8>) -> tensor<4x3xi8>
  return %0 : tensor<4x3xi8>
}

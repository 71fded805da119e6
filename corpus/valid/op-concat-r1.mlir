// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xi8>, %arg1: tensor<3xi8>) -> (tensor<7xi8>) {
  %0 = "tosa.concat"(%arg0, %arg1, %arg0) <{axis = 0 : i32}> : (tensor<2xi8>, tensor<3xi8>, tensor<2xi8>) -> tensor<7xi8>
  return %0 : tensor<7xi8>
}

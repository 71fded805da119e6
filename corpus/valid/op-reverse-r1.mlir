// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xi8>) -> (tensor<1x1x3xi8>) {
  %0 = "tosa.const"() <{values = dense<[[[-9, -11, 16]]]> : tensor<1x1x3xi8>}> : () -> tensor<1x1x3xi8>
  %1 = tosa.reverse %0 {axis = 0 : i32} : (tensor<1x1x3xi8>) -> tensor<1x1x3xi8>
  return %1 : tensor<1x1x3xi8>
}

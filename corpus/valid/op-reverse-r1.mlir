// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xi8>) -> (tensor<1x1x3xi8>) {
  %0 = "tosa.const"() <{values = dense<[[[12, -9, -11]]]> : tensor<1x1x3xi8>}> : () -> tensor<1x1x3xi8>
  %1 = "tosa.reverse"(%0) <{axis = 1 : i32}> : (tensor<1x1x3xi8>) -> tensor<1x1x3xi8>
  return %1 : tensor<1x1x3xi8>
}

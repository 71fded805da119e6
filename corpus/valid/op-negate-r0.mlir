// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1x3x2xi8>) -> (tensor<4x1x3x2xi8>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = "tosa.negate"(%arg0, %0, %0) : (tensor<4x1x3x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x1x3x2xi8>
  return %1 : tensor<4x1x3x2xi8>
}

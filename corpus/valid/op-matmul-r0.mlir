// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1x3xi8>) -> (tensor<4x1x1xi32>) {
  %0 = "tosa.const"() <{values = dense<[[[39], [57], [-42]], [[-77], [-17], [95]], [[18], [-60], [-36]], [[85], [-38], [-123]]]> : tensor<4x3x1xi8>}> : () -> tensor<4x3x1xi8>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.matmul"(%arg0, %0, %1, %2) : (tensor<4x1x3xi8>, tensor<4x3x1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x1x1xi32>
  return %3 : tensor<4x1x1xi32>
}

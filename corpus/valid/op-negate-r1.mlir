// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x1xi16>) -> (tensor<2x3x1xi16>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %2 = "tosa.negate"(%arg0, %0, %1) : (tensor<2x3x1xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<2x3x1xi16>
  return %2 : tensor<2x3x1xi16>
}

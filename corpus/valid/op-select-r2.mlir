// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x1x1xi16>, %arg1: tensor<1x1x3xi16>) -> (tensor<3x1x3xi16>) {
  %0 = "tosa.const"() <{values = dense<false> : tensor<3x1x1xi1>}> : () -> tensor<3x1x1xi1>
  %1 = "tosa.select"(%0, %arg0, %arg1) : (tensor<3x1x1xi1>, tensor<3x1x1xi16>, tensor<1x1x3xi16>) -> tensor<3x1x3xi16>
  return %1 : tensor<3x1x3xi16>
}

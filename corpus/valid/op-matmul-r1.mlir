// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x2xi16>) -> (tensor<2x1x3xi48>) {
  %0 = "tosa.const"() <{values = dense<[[[-15124, -14278, -19951], [19165, 11046, -19171]], [[-83, -17727, 11924], [-29457, -25915, -19612]]]> : tensor<2x2x3xi16>}> : () -> tensor<2x2x3xi16>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %2 = "tosa.matmul"(%arg0, %0, %1, %1) : (tensor<2x1x2xi16>, tensor<2x2x3xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<2x1x3xi48>
  return %2 : tensor<2x1x3xi48>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x1x1x2xi16>) -> (tensor<3x3x2x2x4xi16>) {
  %0 = "tosa.const"() <{values = dense<4> : tensor<3x3x2x2x4xi16>}> : () -> tensor<3x3x2x2x4xi16>
  %1 = "tosa.logical_left_shift"(%0, %0) : (tensor<3x3x2x2x4xi16>, tensor<3x3x2x2x4xi16>) -> tensor<3x3x2x2x4xi16>
  return %1 : tensor<3x3x2x2x4xi16>
}

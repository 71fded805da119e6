// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x4xbf16>) -> (tensor<3x3x4xbf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %1 = "tosa.negate"(%arg0, %0, %0) : (tensor<3x3x4xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<3x3x4xbf16>
  return %1 : tensor<3x3x4xbf16>
}

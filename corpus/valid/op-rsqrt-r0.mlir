// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xf16>) -> (tensor<2x2x1x2x3xf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<2x2x1x2x3xf16>}> : () -> tensor<2x2x1x2x3xf16>
  %1 = "tosa.rsqrt"(%0) : (tensor<2x2x1x2x3xf16>) -> tensor<2x2x1x2x3xf16>
  return %1 : tensor<2x2x1x2x3xf16>
}

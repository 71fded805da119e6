// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1x2x3xbf16>) -> (tensor<2xbf16>) {
  %0 = "tosa.const"() <{values = dense<[-0.8828125, -0.56640625]> : tensor<2xbf16>}> : () -> tensor<2xbf16>
  %1 = "tosa.cos"(%0) : (tensor<2xbf16>) -> tensor<2xbf16>
  return %1 : tensor<2xbf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x2x4x1xbf16>) -> (tensor<2xbf16>) {
  %0 = "tosa.const"() <{values = dense<[510.0, -580.0]> : tensor<2xbf16>}> : () -> tensor<2xbf16>
  %1 = "tosa.abs"(%0) : (tensor<2xbf16>) -> tensor<2xbf16>
  return %1 : tensor<2xbf16>
}

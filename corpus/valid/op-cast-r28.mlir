// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1xf8E4M3FN>) -> (tensor<3xbf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<3xf8E4M3FN>}> : () -> tensor<3xf8E4M3FN>
  %1 = "tosa.cast"(%0) : (tensor<3xf8E4M3FN>) -> tensor<3xbf16>
  return %1 : tensor<3xbf16>
}

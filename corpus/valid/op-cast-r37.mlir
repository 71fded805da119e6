// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x2x3x2xf16>) -> (tensor<1xf8E5M2>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %1 = "tosa.cast"(%0) : (tensor<1xf16>) -> tensor<1xf8E5M2>
  return %1 : tensor<1xf8E5M2>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4x1xf16>) -> (tensor<2x4x2xf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<2x1x2xf16>}> : () -> tensor<2x1x2xf16>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %3 = "tosa.matmul"(%arg0, %0, %1, %2) : (tensor<2x4x1xf16>, tensor<2x1x2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x2xf16>
  return %3 : tensor<2x4x2xf16>
}

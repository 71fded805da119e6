// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4x4xbf16>) -> (tensor<2x4x1xf32>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<2x4x1xbf16>}> : () -> tensor<2x4x1xbf16>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %3 = "tosa.matmul"(%arg0, %0, %1, %2) : (tensor<2x4x4xbf16>, tensor<2x4x1xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x4x1xf32>
  return %3 : tensor<2x4x1xf32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x2xf8E4M3FN>, %arg1: tensor<1x2x4xf8E4M3FN>) -> (tensor<1x3x4xf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %1 = "tosa.matmul"(%arg0, %arg1, %0, %0) : (tensor<1x3x2xf8E4M3FN>, tensor<1x2x4xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<1x3x4xf16>
  return %1 : tensor<1x3x4xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x3x4x2xf16>) -> (tensor<2x1x1x4xf16>) {
  %0 = "tosa.const"() <{values = dense<527.0> : tensor<2x1x1x4xf16>}> : () -> tensor<2x1x1x4xf16>
  %1 = "tosa.exp"(%0) : (tensor<2x1x1x4xf16>) -> tensor<2x1x1x4xf16>
  return %1 : tensor<2x1x1x4xf16>
}

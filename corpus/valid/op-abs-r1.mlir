// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x1x1x1x3xf16>) -> (tensor<1x1x4xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[-8.8984375, 9.6875, -1.09765625, 9.0625]]]> : tensor<1x1x4xf16>}> : () -> tensor<1x1x4xf16>
  %1 = "tosa.abs"(%0) : (tensor<1x1x4xf16>) -> tensor<1x1x4xf16>
  return %1 : tensor<1x1x4xf16>
}

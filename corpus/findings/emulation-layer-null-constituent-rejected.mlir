// TOSA MLIR of graph entry point "main" (graph %13)
func.func @main(%arg0: tensor<1x4xbf16>) -> (tensor<1x4xbf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1x4xbf16>}> : () -> tensor<1x4xbf16>
  %1 = "tosa.add"(%arg0, %0) : (tensor<1x4xbf16>, tensor<1x4xbf16>) -> tensor<1x4xbf16>
  return %1 : tensor<1x4xbf16>
}

// TOSA MLIR of graph entry point "main" (graph %13)
func.func @main() -> (tensor<1x2x4xf16>) {
  %0 = "tosa.const"() <{values = dense<1.5> : tensor<1x2x4xf32>}> : () -> tensor<1x2x4xf32>
  %1 = "tosa.cast"(%0) : (tensor<1x2x4xf32>) -> tensor<1x2x4xf16>
  return %1 : tensor<1x2x4xf16>
}

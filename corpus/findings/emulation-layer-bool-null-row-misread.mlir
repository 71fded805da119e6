// TOSA MLIR of graph entry point "main" (graph %11)
func.func @main() -> (tensor<2x4xi1>) {
  %0 = "tosa.const"() <{values = dense<[[false, false, false, false], [true, false, true, false]]> : tensor<2x4xi1>}> : () -> tensor<2x4xi1>
  %1 = "tosa.logical_not"(%0) : (tensor<2x4xi1>) -> tensor<2x4xi1>
  return %1 : tensor<2x4xi1>
}

// TOSA MLIR of graph entry point "main" (graph %11)
func.func @main() -> (tensor<2x4xi16>) {
  %0 = "tosa.const"() <{values = dense<[[0, 0, 0, 0], [1, 2, 3, 4]]> : tensor<2x4xi8>}> : () -> tensor<2x4xi8>
  %1 = "tosa.cast"(%0) : (tensor<2x4xi8>) -> tensor<2x4xi16>
  return %1 : tensor<2x4xi16>
}

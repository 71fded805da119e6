// TOSA MLIR of graph entry point "graph0" (graph %30)
func.func @graph0() -> (tensor<2x1x1xi16>, tensor<4x1x3x7xi32>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<2x1x1xf32>}> : () -> tensor<2x1x1xf32>
  %1 = "tosa.const"() <{values = dense<0> : tensor<2x1xi32>}> : () -> tensor<2x1xi32>
  %2 = "tosa.scatter"(%0, %1, %0) : (tensor<2x1x1xf32>, tensor<2x1xi32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %3 = "tosa.cast"(%2) : (tensor<2x1x1xf32>) -> tensor<2x1x1xi16>
  %4 = "tosa.const"() <{values = dense<0> : tensor<4x1x3x7xi32>}> : () -> tensor<4x1x3x7xi32>
  return %3, %4 : tensor<2x1x1xi16>, tensor<4x1x3x7xi32>
}

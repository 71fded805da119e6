func.func @main() -> tensor<2x1x1xi16> {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<2x1x1xf32>}> : () -> tensor<2x1x1xf32>
  %1 = "tosa.const"() <{values = dense<0> : tensor<2x1xi32>}> : () -> tensor<2x1xi32>
  %2 = "tosa.scatter"(%0, %1, %0) : (tensor<2x1x1xf32>, tensor<2x1xi32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %3 = "tosa.cast"(%2) : (tensor<2x1x1xf32>) -> tensor<2x1x1xi16>
  return %3 : tensor<2x1x1xi16>
}

func.func @graph0(%arg0: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %c = "tosa.const"() <{values = dense<[5, -7]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tosa.abs"(%arg0) : (tensor<2xi32>) -> tensor<2xi32>
  return %0, %c : tensor<2xi32>, tensor<2xi32>
}

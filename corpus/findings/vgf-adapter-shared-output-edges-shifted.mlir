func.func @main(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "tosa.abs"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "tosa.ceil"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

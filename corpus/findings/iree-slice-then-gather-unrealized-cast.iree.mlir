func.func @main(%arg0: tensor<8x2x2xi32>, %arg1: tensor<7x1xi32>) -> (tensor<7x1x1xi32>) {
  %0 = "tosa.const_shape"() <{values = dense<[1, 0, 0]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %1 = "tosa.const_shape"() <{values = dense<[7, 2, 1]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %2 = "tosa.slice"(%arg0, %0, %1) : (tensor<8x2x2xi32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<7x2x1xi32>
  %3 = "tosa.gather"(%2, %arg1) : (tensor<7x2x1xi32>, tensor<7x1xi32>) -> tensor<7x1x1xi32>
  return %3 : tensor<7x1x1xi32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x8x4xf32>) -> (tensor<1x8x3xf32>, tensor<1x1x1xi32>) {
  %0:2 = "tosa.rfft2d"(%arg0) <{local_bound = false}> : (tensor<1x8x4xf32>) -> (tensor<1x8x3xf32>, tensor<1x8x3xf32>)
  %1 = "tosa.cast"(%0#1) : (tensor<1x8x3xf32>) -> tensor<1x8x3xi32>
  %2 = "tosa.const_shape"() <{values = dense<[0, 2, 0]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %3 = "tosa.const_shape"() <{values = dense<[1, 1, 1]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %4 = "tosa.slice"(%1, %2, %3) : (tensor<1x8x3xi32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x1x1xi32>
  return %0#0, %4 : tensor<1x8x3xf32>, tensor<1x1x1xi32>
}

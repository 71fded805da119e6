// TOSA MLIR of graph entry point "main" (graph %17)
func.func @main(%arg0: tensor<1x2x1x1xf32>) -> (tensor<1x3x3x1xf32>) {
  %0 = "tosa.const_shape"() <{values = dense<[1, 2, 1, 1]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.const_shape"() <{values = dense<[0, 0]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.const_shape"() <{values = dense<[-1, 0]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %3 = "tosa.resize"(%arg0, %0, %1, %2) <{mode = #tosa.resize_mode<NEAREST_NEIGHBOR>}> : (tensor<1x2x1x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1x1x1xf32>
  %4 = "tosa.const_shape"() <{values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>}> : () -> !tosa.shape<8>
  %5 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %6 = "tosa.pad"(%3, %4, %5) : (tensor<1x1x1x1xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x3x3x1xf32>
  return %6 : tensor<1x3x3x1xf32>
}

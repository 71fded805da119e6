// TOSA MLIR of graph entry point "main" (graph %17)
func.func @main(%arg0: tensor<1x1x2x1xf32>) -> (tensor<1x1x3x1xf32>) {
  %0 = "tosa.const_shape"() <{values = dense<[2, 2, 2, 1]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.const_shape"() <{values = dense<[0, 0]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.resize"(%arg0, %0, %1, %1) <{mode = #tosa.resize_mode<BILINEAR>}> : (tensor<1x1x2x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1x3x1xf32>
  return %2 : tensor<1x1x3x1xf32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x3x3xbf16>) -> (tensor<4x2x2x3xbf16>) {
  %0 = "tosa.const_shape"() <{values = dense<[4, 8, 8, 18]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.const_shape"() <{values = dense<[1, -1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.const_shape"() <{values = dense<[1, 1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %3 = "tosa.resize"(%arg0, %0, %1, %2) <{mode = #tosa.resize_mode<BILINEAR>}> : (tensor<4x3x3x3xbf16>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x2x2x3xbf16>
  return %3 : tensor<4x2x2x3xbf16>
}

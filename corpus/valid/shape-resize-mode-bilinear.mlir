// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x4x4xi16>) -> (tensor<2x2x4x4xi16>) {
  %0 = "tosa.const_shape"() <{values = dense<[8, 2, 9, 21]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.const_shape"() <{values = dense<[4, 29]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.const_shape"() <{values = dense<[6, 2]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %3 = "tosa.resize"(%arg0, %0, %1, %2) <{mode = #tosa.resize_mode<BILINEAR>}> : (tensor<2x2x4x4xi16>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x6x1x4xi48>
  return %arg0 : tensor<2x2x4x4xi16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x4x4xi16>) -> (tensor<4x5x1x4xi48>) {
  %0 = "tosa.const_shape"() <{values = dense<[3, 3, 5, 10]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.const_shape"() <{values = dense<[-2, -3]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.const_shape"() <{values = dense<[1, -18]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %3 = "tosa.resize"(%arg0, %0, %1, %2) <{mode = #tosa.resize_mode<BILINEAR>}> : (tensor<4x4x4x4xi16>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x5x1x4xi48>
  return %3 : tensor<4x5x1x4xi48>
}

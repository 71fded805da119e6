// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x1x2xi16>) -> (tensor<3x1x1x2xi16>) {
  %0 = "tosa.const_shape"() <{values = dense<[5, 4, 8, 9]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.const_shape"() <{values = dense<[7, -6]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.const_shape"() <{values = dense<[-3, -6]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %3 = "tosa.resize"(%arg0, %0, %1, %2) <{mode = #tosa.resize_mode<NEAREST_NEIGHBOR>}> : (tensor<3x3x1x2xi16>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<3x1x1x2xi16>
  return %3 : tensor<3x1x1x2xi16>
}

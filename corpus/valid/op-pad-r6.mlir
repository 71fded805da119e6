// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x2x4xf16>) -> (tensor<4x3x3x6xf16>) {
  %0 = "tosa.const_shape"() <{values = dense<[1, 0, 0, 1, 1, 0, 0, 2]> : tensor<8xindex>}> : () -> !tosa.shape<8>
  %1 = "tosa.const"() <{values = dense<0.1827392578125> : tensor<1xf16>}> : () -> tensor<1xf16>
  %2 = "tosa.pad"(%arg0, %0, %1) : (tensor<3x2x2x4xf16>, !tosa.shape<8>, tensor<1xf16>) -> tensor<4x3x3x6xf16>
  return %2 : tensor<4x3x3x6xf16>
}

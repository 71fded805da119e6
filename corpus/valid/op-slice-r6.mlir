// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1xf16>) -> (tensor<4x1xf16>) {
  %0 = "tosa.const_shape"() <{values = dense<[0, 0]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %1 = "tosa.const_shape"() <{values = dense<[4, 1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.slice"(%arg0, %0, %1) : (tensor<4x1xf16>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x1xf16>
  return %2 : tensor<4x1xf16>
}

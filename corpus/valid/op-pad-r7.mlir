// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x1x3xbf16>) -> (tensor<4x2x5xbf16>) {
  %0 = "tosa.const_shape"() <{values = dense<[1, 2, 0, 1, 1, 1]> : tensor<6xindex>}> : () -> !tosa.shape<6>
  %1 = "tosa.const"() <{values = dense<0.9921875> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %2 = "tosa.pad"(%arg0, %0, %1) : (tensor<1x1x3xbf16>, !tosa.shape<6>, tensor<1xbf16>) -> tensor<4x2x5xbf16>
  return %2 : tensor<4x2x5xbf16>
}

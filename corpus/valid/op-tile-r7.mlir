// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x1x4x1xbf16>) -> (tensor<4x3x1x4x2xbf16>) {
  %0 = "tosa.const_shape"() <{values = dense<[1, 1, 1, 1, 2]> : tensor<5xindex>}> : () -> !tosa.shape<5>
  %1 = "tosa.tile"(%arg0, %0) : (tensor<4x3x1x4x1xbf16>, !tosa.shape<5>) -> tensor<4x3x1x4x2xbf16>
  return %1 : tensor<4x3x1x4x2xbf16>
}

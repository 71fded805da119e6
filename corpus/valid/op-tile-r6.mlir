// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x1x1x4xf16>) -> (tensor<3x3x1x3x4xf16>) {
  %0 = "tosa.const_shape"() <{values = dense<[1, 1, 1, 3, 1]> : tensor<5xindex>}> : () -> !tosa.shape<5>
  %1 = "tosa.tile"(%arg0, %0) : (tensor<3x3x1x1x4xf16>, !tosa.shape<5>) -> tensor<3x3x1x3x4xf16>
  return %1 : tensor<3x3x1x3x4xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x4x2xf8E4M3FN>) -> (tensor<3x3x4x4xf8E4M3FN>) {
  %0 = "tosa.const_shape"() <{values = dense<[1, 1, 1, 2]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.tile"(%arg0, %0) : (tensor<3x3x4x2xf8E4M3FN>, !tosa.shape<4>) -> tensor<3x3x4x4xf8E4M3FN>
  return %1 : tensor<3x3x4x4xf8E4M3FN>
}

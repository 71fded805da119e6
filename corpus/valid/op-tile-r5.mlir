// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x3xf8E5M2>) -> (tensor<4x3x9xf8E5M2>) {
  %0 = "tosa.const_shape"() <{values = dense<[1, 1, 3]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %1 = "tosa.tile"(%arg0, %0) : (tensor<4x3x3xf8E5M2>, !tosa.shape<3>) -> tensor<4x3x9xf8E5M2>
  return %1 : tensor<4x3x9xf8E5M2>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3xi32>) -> (tensor<9x3xi32>) {
  %0 = "tosa.const_shape"() <{values = dense<[3, 1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %1 = "tosa.tile"(%arg0, %0) : (tensor<3x3xi32>, !tosa.shape<2>) -> tensor<9x3xi32>
  return %1 : tensor<9x3xi32>
}

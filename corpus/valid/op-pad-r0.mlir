// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x2x1xi1>) -> (tensor<4x4x4x3xi1>) {
  %0 = "tosa.const_shape"() <{values = dense<[2, 1, 0, 1, 0, 2, 1, 1]> : tensor<8xindex>}> : () -> !tosa.shape<8>
  %1 = "tosa.const"() <{values = dense<true> : tensor<1xi1>}> : () -> tensor<1xi1>
  %2 = "tosa.pad"(%arg0, %0, %1) : (tensor<1x3x2x1xi1>, !tosa.shape<8>, tensor<1xi1>) -> tensor<4x4x4x3xi1>
  return %2 : tensor<4x4x4x3xi1>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x4xi1>) -> (tensor<4x3x4xi1>, tensor<4x3x4xi1>) {
  %0 = "tosa.logical_xor"(%arg0, %arg0) : (tensor<4x3x4xi1>, tensor<4x3x4xi1>) -> tensor<4x3x4xi1>
  %1 = "tosa.const_shape"() <{values = dense<[2, 2, 2, 0, 1, 0]> : tensor<6xindex>}> : () -> !tosa.shape<6>
  %2 = "tosa.const"() <{values = dense<true> : tensor<1xi1>}> : () -> tensor<1xi1>
  %3 = "tosa.pad"(%0, %1, %2) : (tensor<4x3x4xi1>, !tosa.shape<6>, tensor<1xi1>) -> tensor<8x5x5xi1>
  return %arg0, %arg0 : tensor<4x3x4xi1>, tensor<4x3x4xi1>
}

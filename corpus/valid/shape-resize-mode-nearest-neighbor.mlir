// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4x2x1xi8>, %arg1: tensor<2x3x1x1xi8>) -> (tensor<2x4x2x1xi8>) {
  %0 = "tosa.const_shape"() <{values = dense<[16, 24, 7, 14]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.const_shape"() <{values = dense<[-10, 6]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.const_shape"() <{values = dense<[-10, -1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %3 = "tosa.resize"(%arg0, %0, %1, %2) <{mode = #tosa.resize_mode<NEAREST_NEIGHBOR>}> : (tensor<2x4x2x1xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3x1x1xi8>
  %4 = "tosa.bitwise_not"(%3) : (tensor<2x3x1x1xi8>) -> tensor<2x3x1x1xi8>
  %5 = "tosa.bitwise_xor"(%4, %arg1) : (tensor<2x3x1x1xi8>, tensor<2x3x1x1xi8>) -> tensor<2x3x1x1xi8>
  return %arg0 : tensor<2x4x2x1xi8>
}

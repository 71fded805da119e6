// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>, %arg2: tensor<2x1x3x4x1x1xf8E5M2>) -> (tensor<4xi32>, tensor<2x2x4x5x3x1xf8E5M2>) {
  %0 = "tosa.intdiv"(%arg0, %arg1) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = "tosa.const_shape"() <{values = dense<[0, 0, 0, 1, 0, 1, 0, 1, 0, 2, 0, 0]> : tensor<12xindex>}> : () -> !tosa.shape<12>
  %2 = "tosa.const"() <{values = dense<-40960.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %3 = "tosa.pad"(%arg2, %1, %2) : (tensor<2x1x3x4x1x1xf8E5M2>, !tosa.shape<12>, tensor<1xf8E5M2>) -> tensor<2x2x4x5x3x1xf8E5M2>
  return %0, %3 : tensor<4xi32>, tensor<2x2x4x5x3x1xf8E5M2>
}

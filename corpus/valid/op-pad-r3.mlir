// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x2x3x2xi32>) -> (tensor<4x3x2x3x2xi32>) {
  %0 = "tosa.const_shape"() <{values = dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<10xindex>}> : () -> !tosa.shape<10>
  %1 = "tosa.const"() <{values = dense<-1417658628> : tensor<1xi32>}> : () -> tensor<1xi32>
  %2 = "tosa.pad"(%arg0, %0, %1) : (tensor<4x3x2x3x2xi32>, !tosa.shape<10>, tensor<1xi32>) -> tensor<4x3x2x3x2xi32>
  return %2 : tensor<4x3x2x3x2xi32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x3x2xi8>) -> (tensor<4x3x7x3xi8>) {
  %0 = "tosa.const_shape"() <{values = dense<[0, 0, 0, 0, 2, 2, 0, 1]> : tensor<8xindex>}> : () -> !tosa.shape<8>
  %1 = "tosa.const"() <{values = dense<-1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.pad"(%arg0, %0, %1) : (tensor<4x3x3x2xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<4x3x7x3xi8>
  return %2 : tensor<4x3x7x3xi8>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1xi8>) -> (tensor<2x2x3xi8>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<3x2x3xi8>}> : () -> tensor<3x2x3xi8>
  %1 = "tosa.const_shape"() <{values = dense<[1, 0, 0]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %2 = "tosa.const_shape"() <{values = dense<[2, 2, 3]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %3 = "tosa.slice"(%0, %1, %2) : (tensor<3x2x3xi8>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x2x3xi8>
  return %3 : tensor<2x2x3xi8>
}

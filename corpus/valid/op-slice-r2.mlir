// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4xi16>) -> (tensor<2xi16>) {
  %0 = "tosa.const"() <{values = dense<[2, -12, -13]> : tensor<3xi16>}> : () -> tensor<3xi16>
  %1 = "tosa.const_shape"() <{values = dense<[0]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %2 = "tosa.const_shape"() <{values = dense<[2]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %3 = "tosa.slice"(%0, %1, %2) : (tensor<3xi16>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2xi16>
  return %3 : tensor<2xi16>
}

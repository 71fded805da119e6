// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x2xi1>) -> (tensor<2x1x2xi1>) {
  %0 = "tosa.const_shape"() <{values = dense<[0, 0, 0]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %1 = "tosa.const_shape"() <{values = dense<[2, 1, 2]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %2 = "tosa.slice"(%arg0, %0, %1) : (tensor<2x1x2xi1>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x1x2xi1>
  return %2 : tensor<2x1x2xi1>
}

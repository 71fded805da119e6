// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xi1>) -> (tensor<4xi1>) {
  %0 = "tosa.const_shape"() <{values = dense<[2]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %1 = "tosa.tile"(%arg0, %0) : (tensor<2xi1>, !tosa.shape<1>) -> tensor<4xi1>
  return %1 : tensor<4xi1>
}

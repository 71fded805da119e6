// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x3x2xi1>) -> (tensor<96xi1>) {
  %0 = "tosa.const_shape"() <{values = dense<[96]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %1 = "tosa.reshape"(%arg0, %0) : (tensor<4x4x3x2xi1>, !tosa.shape<1>) -> tensor<96xi1>
  return %1 : tensor<96xi1>
}

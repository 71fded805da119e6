// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x1xf32>) -> (tensor<4xf32>) {
  %0 = "tosa.const_shape"() <{values = dense<[4]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %1 = "tosa.reshape"(%arg0, %0) : (tensor<1x4x1xf32>, !tosa.shape<1>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4xf8E5M2>) -> (tensor<1xf8E5M2>) {
  %0 = "tosa.const_shape"() <{values = dense<[1]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %1 = "tosa.slice"(%arg0, %0, %0) : (tensor<4xf8E5M2>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<1xf8E5M2>
  return %1 : tensor<1xf8E5M2>
}

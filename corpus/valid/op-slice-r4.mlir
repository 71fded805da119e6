// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2xf8E4M3FN>) -> (tensor<1x2xf8E4M3FN>) {
  %0 = "tosa.const_shape"() <{values = dense<[0, 0]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %1 = "tosa.const_shape"() <{values = dense<[1, 2]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.slice"(%arg0, %0, %1) : (tensor<1x2xf8E4M3FN>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf8E4M3FN>
  return %2 : tensor<1x2xf8E4M3FN>
}

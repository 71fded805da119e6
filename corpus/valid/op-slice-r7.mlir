// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2xbf16>) -> (tensor<1xbf16>) {
  %0 = "tosa.const"() <{values = dense<-1.125> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %1 = "tosa.const_shape"() <{values = dense<[0]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %2 = "tosa.const_shape"() <{values = dense<[1]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %3 = "tosa.slice"(%0, %1, %2) : (tensor<1xbf16>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<1xbf16>
  return %3 : tensor<1xbf16>
}

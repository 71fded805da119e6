// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2xbf16>) -> (tensor<3x3xbf16>) {
  %0 = "tosa.const"() <{values = dense<-3.1236857900945523e38> : tensor<3x1x3x1xbf16>}> : () -> tensor<3x1x3x1xbf16>
  %1 = "tosa.const_shape"() <{values = dense<[3, 3]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.reshape"(%0, %1) : (tensor<3x1x3x1xbf16>, !tosa.shape<2>) -> tensor<3x3xbf16>
  return %2 : tensor<3x3xbf16>
}

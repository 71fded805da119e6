// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x2x3x3xi16>) -> (tensor<1x7xi16>) {
  %0 = "tosa.const"() <{values = dense<-32627> : tensor<1x4xi16>}> : () -> tensor<1x4xi16>
  %1 = "tosa.const_shape"() <{values = dense<[0, 0, 1, 2]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %2 = "tosa.const"() <{values = dense<-14> : tensor<1xi16>}> : () -> tensor<1xi16>
  %3 = "tosa.pad"(%0, %1, %2) : (tensor<1x4xi16>, !tosa.shape<4>, tensor<1xi16>) -> tensor<1x7xi16>
  return %3 : tensor<1x7xi16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x2x3xi16>, %arg1: tensor<1xi48>) -> (tensor<1x6x3x9xi48>) {
  %0 = "tosa.const"() <{values = dense<-33> : tensor<1x2x3x3xi8>}> : () -> tensor<1x2x3x3xi8>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.depthwise_conv2d"(%arg0, %0, %arg1, %1, %2) <{pad = array<i64: 2, 0, 2, 2>, stride = array<i64: 1, 2>, dilation = array<i64: 1, 1>, acc_type = i48, local_bound = false}> : (tensor<1x4x2x3xi16>, tensor<1x2x3x3xi8>, tensor<1xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x6x3x9xi48>
  return %3 : tensor<1x6x3x9xi48>
}

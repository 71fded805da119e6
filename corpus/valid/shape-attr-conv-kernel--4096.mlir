// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x4x1xf16>, %arg1: tensor<1xf16>) -> (tensor<3x2x6x4xf16>) {
  %0 = "tosa.const"() <{values = dense<-326.75> : tensor<3x1x1x4xf16>}> : () -> tensor<3x1x1x4xf16>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %3 = "tosa.depthwise_conv2d"(%arg0, %0, %arg1, %1, %2) <{pad = array<i64: 7194, 5415, 1, 1>, stride = array<i64: 7318, 1>, dilation = array<i64: 2646, 1>, acc_type = f32, local_bound = true}> : (tensor<3x2x4x1xf16>, tensor<3x1x1x4xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x2x6x4xf16>
  return %3 : tensor<3x2x6x4xf16>
}

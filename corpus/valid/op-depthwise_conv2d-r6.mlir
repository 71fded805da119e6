// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x4x4xbf16>) -> (tensor<3x3x6x4xbf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[-0.7109375], [0.62109375], [-0.443359375], [-0.380859375]]]]> : tensor<1x1x4x1xbf16>}> : () -> tensor<1x1x4x1xbf16>
  %1 = "tosa.const"() <{values = dense<-1.914088313930279e38> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %4 = "tosa.depthwise_conv2d"(%arg0, %0, %1, %2, %3) <{pad = array<i64: 0, 0, 0, 2>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = f32, local_bound = true}> : (tensor<3x3x4x4xbf16>, tensor<1x1x4x1xbf16>, tensor<1xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<3x3x6x4xbf16>
  return %4 : tensor<3x3x6x4xbf16>
}

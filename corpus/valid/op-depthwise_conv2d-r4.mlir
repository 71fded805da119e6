// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x2xf16>) -> (tensor<3x3x5x3xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0]]], [[[702.0, 702.0, 702.0]], [[702.0, 702.0, 702.0]]], [[[613.5, 613.5, 613.5]], [[613.5, 613.5, 613.5]]]]> : tensor<3x2x1x3xf16>}> : () -> tensor<3x2x1x3xf16>
  %1 = "tosa.const"() <{values = dense<0.07000732421875> : tensor<2x1x3x1xf16>}> : () -> tensor<2x1x3x1xf16>
  %2 = "tosa.const"() <{values = dense<8.7421875> : tensor<3xf16>}> : () -> tensor<3xf16>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %4 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %5 = tosa.depthwise_conv2d %0, %1, %2, %3, %4 {pad = array<i64: 1, 2, 2, 2>, stride = array<i64: 1, 1>, dilation = array<i64: 2, 1>, acc_type = f16, local_bound = false} : (tensor<3x2x1x3xf16>, tensor<2x1x3x1xf16>, tensor<3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x3x5x3xf16>
  return %5 : tensor<3x3x5x3xf16>
}

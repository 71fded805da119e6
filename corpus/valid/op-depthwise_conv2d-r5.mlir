// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x4x2xf16>) -> (tensor<2x4x6x4xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[21792.0, -10872.0], [-35936.0, 10616.0]]], [[[11880.0, 50016.0], [-24000.0, -10624.0]]], [[[62656.0, 30176.0], [30160.0, -27952.0]]]]> : tensor<3x1x2x2xf16>}> : () -> tensor<3x1x2x2xf16>
  %1 = "tosa.const"() <{values = dense<[-0.391845703125, 0.35009765625, -0.138427734375, 0.355224609375]> : tensor<4xf16>}> : () -> tensor<4xf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %4 = "tosa.depthwise_conv2d"(%arg0, %0, %1, %2, %3) <{pad = array<i64: 1, 2, 0, 2>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = f32, local_bound = false}> : (tensor<2x3x4x2xf16>, tensor<3x1x2x2xf16>, tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x6x4xf16>
  return %4 : tensor<2x4x6x4xf16>
}

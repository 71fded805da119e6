// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x1x4xf8E4M3FN>) -> (tensor<3x2x2x16xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[288.0, 48.0, 128.0, 88.0], [384.0, -4.0, 416.0, 448.0], [112.0, 448.0, 352.0, 32.0], [256.0, 320.0, 320.0, -352.0]]], [[[192.0, 416.0, -208.0, 416.0], [256.0, -320.0, -64.0, 56.0], [112.0, 320.0, -176.0, -288.0], [-120.0, 40.0, -192.0, 352.0]]], [[[-176.0, -208.0, 352.0, -80.0], [-320.0, 208.0, -7.5, -36.0], [-12.0, 320.0, -128.0, 224.0], [-384.0, 64.0, 416.0, -208.0]]]]> : tensor<3x1x4x4xf8E4M3FN>}> : () -> tensor<3x1x4x4xf8E4M3FN>
  %1 = "tosa.const"() <{values = dense<[436.25, -64.625, 586.0, 294.75, 511.25, -52.4375, -30.875, -367.75, 18.03125, -305.0, 668.0, 653.0, -30.203125, 331.25, 49.1875, -990.5]> : tensor<16xf16>}> : () -> tensor<16xf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %3 = "tosa.depthwise_conv2d"(%arg0, %0, %1, %2, %2) <{pad = array<i64: 1, 2, 0, 1>, stride = array<i64: 3, 1>, dilation = array<i64: 1, 1>, acc_type = f16, local_bound = false}> : (tensor<3x3x1x4xf8E4M3FN>, tensor<3x1x4x4xf8E4M3FN>, tensor<16xf16>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<3x2x2x16xf16>
  return %3 : tensor<3x2x2x16xf16>
}

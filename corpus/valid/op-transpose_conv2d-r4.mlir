// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x1x3xf16>) -> (tensor<3x8x3x3xf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<3x2x1x3xf16>}> : () -> tensor<3x2x1x3xf16>
  %1 = "tosa.const"() <{values = dense<[0.60595703125, -0.64599609375, -0.97802734375]> : tensor<3xf16>}> : () -> tensor<3xf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %4 = "tosa.transpose_conv2d"(%arg0, %0, %1, %2, %3) <{out_pad = array<i64: 1, 2, 0, 2>, stride = array<i64: 3, 3>, acc_type = f16, local_bound = true}> : (tensor<3x2x1x3xf16>, tensor<3x2x1x3xf16>, tensor<3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x8x3x3xf16>
  return %4 : tensor<3x8x3x3xf16>
}

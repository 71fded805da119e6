// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1xf16>) -> (tensor<3x4x1x1xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[474.75, 468.0, -957.5], [-966.5, -575.0, 43.34375]], [[967.5, -203.375, 847.0], [803.0, -252.0, -922.0]]], [[[38.78125, 263.75, -397.5], [-397.0, -577.0, -251.0]], [[-339.25, 196.125, -960.5], [-776.5, -915.5, 279.5]]], [[[-12.421875, 447.5, 154.75], [496.25, -917.0, 30.703125]], [[-817.5, 855.0, 749.0], [421.75, 154.5, 830.5]]]]> : tensor<3x2x2x3xf16>}> : () -> tensor<3x2x2x3xf16>
  %1 = "tosa.const"() <{values = dense<[[[[7.0, -4.48828125, 5.9375], [5.77734375, 7.80078125, -7.6171875], [2.40625, 7.54296875, 7.1328125]]]]> : tensor<1x1x3x3xf16>}> : () -> tensor<1x1x3x3xf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %3 = "tosa.transpose_conv2d"(%0, %1, %arg0, %2, %2) <{out_pad = array<i64: 0, 0, -1, -2>, stride = array<i64: 3, 1>, acc_type = f32, local_bound = true}> : (tensor<3x2x2x3xf16>, tensor<1x1x3x3xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x4x1x1xf16>
  return %3 : tensor<3x4x1x1xf16>
}

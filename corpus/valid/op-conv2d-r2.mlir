// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x4x2xf8E4M3FN>) -> (tensor<3x2x6x2xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[0.03125, 0.3125]], [[-0.0546875, 0.140625]], [[-0.34375, 0.8125]]], [[[-0.28125, 0.25]], [[-0.875, -0.3125]], [[-0.9375, -0.1171875]]]]> : tensor<2x3x1x2xf8E4M3FN>}> : () -> tensor<2x3x1x2xf8E4M3FN>
  %1 = "tosa.const"() <{values = dense<[-27856.0, 9192.0]> : tensor<2xf16>}> : () -> tensor<2xf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %3 = "tosa.conv2d"(%arg0, %0, %1, %2, %2) <{pad = array<i64: 2, 1, 0, 2>, stride = array<i64: 2, 1>, dilation = array<i64: 1, 1>, acc_type = f16, local_bound = false}> : (tensor<3x2x4x2xf8E4M3FN>, tensor<2x3x1x2xf8E4M3FN>, tensor<2xf16>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<3x2x6x2xf16>
  return %3 : tensor<3x2x6x2xf16>
}

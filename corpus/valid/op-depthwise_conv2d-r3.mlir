// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x4x1xf8E5M2>, %arg1: tensor<4xf16>) -> (tensor<3x5x2x4xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[112.0, 24.0, 96.0, 256.0]], [[-448.0, 896.0, -768.0, 224.0]], [[-384.0, 48.0, 224.0, 512.0]]], [[[-320.0, 192.0, 24.0, -640.0]], [[-640.0, 768.0, 96.0, 512.0]], [[-640.0, 1024.0, -320.0, -80.0]]]]> : tensor<2x3x1x4xf8E5M2>}> : () -> tensor<2x3x1x4xf8E5M2>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %3 = "tosa.depthwise_conv2d"(%arg0, %0, %arg1, %1, %2) <{pad = array<i64: 1, 1, 0, 2>, stride = array<i64: 1, 3>, dilation = array<i64: 1, 1>, acc_type = f16, local_bound = false}> : (tensor<3x4x4x1xf8E5M2>, tensor<2x3x1x4xf8E5M2>, tensor<4xf16>, tensor<1xf8E5M2>, tensor<1xf8E5M2>) -> tensor<3x5x2x4xf16>
  return %3 : tensor<3x5x2x4xf16>
}

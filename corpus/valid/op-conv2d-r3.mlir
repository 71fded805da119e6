// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x2x3xf8E5M2>, %arg1: tensor<3x1x2x3xf8E5M2>, %arg2: tensor<3xf16>) -> (tensor<3x5x1x3xf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %2 = "tosa.conv2d"(%arg0, %arg1, %arg2, %0, %1) <{pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 2>, acc_type = f16, local_bound = false}> : (tensor<3x4x2x3xf8E5M2>, tensor<3x1x2x3xf8E5M2>, tensor<3xf16>, tensor<1xf8E5M2>, tensor<1xf8E5M2>) -> tensor<3x5x1x3xf16>
  return %2 : tensor<3x5x1x3xf16>
}

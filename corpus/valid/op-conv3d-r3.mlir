// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x3x4x3xf8E5M2>, %arg1: tensor<4x3x2x3x3xf8E5M2>) -> (tensor<1x1x3x6x4xf16>) {
  %0 = "tosa.const"() <{values = dense<[-476.0, 138.75, 496.75, -677.5]> : tensor<4xf16>}> : () -> tensor<4xf16>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %2 = "tosa.conv3d"(%arg0, %arg1, %0, %1, %1) <{pad = array<i64: 0, 1, 1, 2, 2, 2>, stride = array<i64: 2, 2, 1>, dilation = array<i64: 1, 1, 1>, acc_type = f16, local_bound = true}> : (tensor<1x2x3x4x3xf8E5M2>, tensor<4x3x2x3x3xf8E5M2>, tensor<4xf16>, tensor<1xf8E5M2>, tensor<1xf8E5M2>) -> tensor<1x1x3x6x4xf16>
  return %2 : tensor<1x1x3x6x4xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x1x2xf8E5M2>, %arg1: tensor<2x1x3x2xf8E5M2>) -> (tensor<3x9x4x2xf16>) {
  %0 = "tosa.const"() <{values = dense<[61.8125, 892.0]> : tensor<2xf16>}> : () -> tensor<2xf16>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %3 = "tosa.transpose_conv2d"(%arg0, %arg1, %0, %1, %2) <{out_pad = array<i64: 2, 0, 2, -1>, stride = array<i64: 2, 3>, acc_type = f16, local_bound = true}> : (tensor<3x4x1x2xf8E5M2>, tensor<2x1x3x2xf8E5M2>, tensor<2xf16>, tensor<1xf8E5M2>, tensor<1xf8E5M2>) -> tensor<3x9x4x2xf16>
  return %3 : tensor<3x9x4x2xf16>
}

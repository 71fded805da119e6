// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xbf16>, %arg1: tensor<3x1x4x1xbf16>, %arg2: tensor<4x4x2x1xf16>) -> (tensor<3xbf16>, tensor<3x1x6x1xbf16>, tensor<4x4x2x1xf16>, tensor<3xbf16>) {
  %0 = "tosa.clamp"(%arg0) <{min_val = -8.375 : bf16, max_val = 9.75 : bf16, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<3xbf16>) -> tensor<3xbf16>
  %1 = "tosa.const"() <{values = dense<[[[[282.0]]], [[[684.0]]]]> : tensor<2x1x1x1xbf16>}> : () -> tensor<2x1x1x1xbf16>
  %2 = "tosa.const"() <{values = dense<9.6875> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %4 = "tosa.depthwise_conv2d"(%arg1, %1, %2, %3, %3) <{pad = array<i64: 2, 0, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 2, 1>, acc_type = f32, local_bound = false}> : (tensor<3x1x4x1xbf16>, tensor<2x1x1x1xbf16>, tensor<1xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<3x1x6x1xbf16>
  %5 = "tosa.clamp"(%arg2) <{min_val = 0xFC00 : f16, max_val = 0x7C00 : f16, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4x4x2x1xf16>) -> tensor<4x4x2x1xf16>
  return %0, %4, %5, %arg0 : tensor<3xbf16>, tensor<3x1x6x1xbf16>, tensor<4x4x2x1xf16>, tensor<3xbf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x2x3x3xf8E4M3FN>, %arg1: tensor<1xf16>) -> (tensor<1x4x3x3x1xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[[256.0, 20.0, -160.0], [224.0, -384.0, -224.0]], [[384.0, -32.0, -52.0], [288.0, -208.0, 352.0]]], [[[-36.0, 240.0, 448.0], [384.0, 256.0, 144.0]], [[24.0, 48.0, 176.0], [22.0, -104.0, 120.0]]], [[[-320.0, 352.0, -96.0], [-288.0, 352.0, -320.0]], [[288.0, 176.0, 448.0], [-416.0, 320.0, 352.0]]]]]> : tensor<1x3x2x2x3xf8E4M3FN>}> : () -> tensor<1x3x2x2x3xf8E4M3FN>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %2 = "tosa.conv3d"(%arg0, %0, %arg1, %1, %1) <{pad = array<i64: 1, 2, 1, 1, 2, 1>, stride = array<i64: 1, 1, 2>, dilation = array<i64: 1, 1, 1>, acc_type = f16, local_bound = false}> : (tensor<1x3x2x3x3xf8E4M3FN>, tensor<1x3x2x2x3xf8E4M3FN>, tensor<1xf16>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<1x4x3x3x1xf16>
  return %2 : tensor<1x4x3x3x1xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x4x1x3xf16>) -> (tensor<3x2x1x9xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[-811.5, 311.5, 702.0]], [[135.75, 613.5, 70.0]]], [[[874.0, -328.5, -971.0]], [[631.0, -107.9375, -618.0]]], [[[111.3125, -974.0, -510.25]], [[-769.5, -984.0, 770.5]]]]> : tensor<3x2x1x3xf16>}> : () -> tensor<3x2x1x3xf16>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<2x3x3x3xf16>}> : () -> tensor<2x3x3x3xf16>
  %2 = "tosa.const"() <{values = dense<[694.5, 522.0, 726.5, -870.5, -488.25, 880.5, 627.5, 447.0, -778.5]> : tensor<9xf16>}> : () -> tensor<9xf16>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %4 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %5 = "tosa.depthwise_conv2d"(%0, %1, %2, %3, %4) <{pad = array<i64: 1, 1, 0, 2>, stride = array<i64: 2, 3>, dilation = array<i64: 1, 1>, acc_type = f16, local_bound = true}> : (tensor<3x2x1x3xf16>, tensor<2x3x3x3xf16>, tensor<9xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x2x1x9xf16>
  return %5 : tensor<3x2x1x9xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1xf16>) -> (tensor<2x2x1x2x2xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[[807.0, 950.5, 733.0, 1.6171875], [-315.0, 878.0, -200.125, -672.0], [328.25, 690.0, -534.0, 157.0], [-304.25, 802.0, 51.90625, 620.5]], [[435.25, 62.71875, -636.0, -926.5], [-26.71875, -118.6875, 214.375, -385.75], [487.0, -221.25, 163.625, 595.5], [-623.5, -874.0, 478.75, -784.5]]]], [[[[-799.0, -735.0, 584.5, 196.125], [295.75, 687.5, 864.5, -13.7734375], [95.9375, -788.5, -399.75, -50.96875], [173.625, -344.25, 923.0, 432.5]], [[-728.0, 886.0, 686.0, -97.25], [4.29296875, 513.0, 846.5, 757.0], [-641.5, -143.125, 284.25, 244.875], [-125.8125, -830.0, -698.5, 629.5]]]]]> : tensor<2x1x2x4x4xf16>}> : () -> tensor<2x1x2x4x4xf16>
  %1 = "tosa.const"() <{values = dense<-5.578125> : tensor<2x3x3x3x4xf16>}> : () -> tensor<2x3x3x3x4xf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<2xf16>}> : () -> tensor<2xf16>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %4 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %5 = "tosa.conv3d"(%0, %1, %2, %3, %4) <{pad = array<i64: 2, 2, 2, 1, 2, 0>, stride = array<i64: 2, 3, 3>, dilation = array<i64: 1, 2, 1>, acc_type = f32, local_bound = false}> : (tensor<2x1x2x4x4xf16>, tensor<2x3x3x3x4xf16>, tensor<2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x2x1x2x2xf16>
  return %5 : tensor<2x2x1x2x2xf16>
}

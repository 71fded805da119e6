// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<5x2x2xf16>) -> (tensor<3x2x2x24xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[867.5, -702.5, 488.5, 746.0]], [[71.4375, 62.9375, -593.0, -944.0]], [[-244.875, 168.25, 624.5, 629.5]]], [[[162.375, -977.5, -423.75, 235.75]], [[-59.1875, -317.75, -707.0, -457.5]], [[517.5, 743.5, -486.0, -485.5]]], [[[-245.75, 643.0, 527.0, -101.25]], [[-878.5, 461.5, 599.5, -874.0]], [[-634.5, 476.25, -454.5, -38.5625]]]]> : tensor<3x3x1x4xf16>}> : () -> tensor<3x3x1x4xf16>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %2 = "tosa.avg_pool2d"(%0, %1, %1) <{kernel = array<i64: 2, 4>, stride = array<i64: 3, 4>, pad = array<i64: 1, 1, 1, 2>, acc_type = f32}> : (tensor<3x3x1x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x2x1x4xf16>
  %3 = "tosa.const"() <{values = dense<-24272.0> : tensor<2x2x4x6xf16>}> : () -> tensor<2x2x4x6xf16>
  %4 = "tosa.const"() <{values = dense<58720.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %5 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %6 = "tosa.depthwise_conv2d"(%2, %3, %4, %5, %5) <{pad = array<i64: 0, 2, 2, 1>, stride = array<i64: 2, 1>, dilation = array<i64: 1, 2>, acc_type = f16, local_bound = false}> : (tensor<3x2x1x4xf16>, tensor<2x2x4x6xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x2x2x24xf16>
  %7 = "tosa.sigmoid"(%6) : (tensor<3x2x2x24xf16>) -> tensor<3x2x2x24xf16>
  %8 = "tosa.sigmoid"(%7) : (tensor<3x2x2x24xf16>) -> tensor<3x2x2x24xf16>
  return %8 : tensor<3x2x2x24xf16>
}

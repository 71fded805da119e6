// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4x4x2xf32>, %arg1: tensor<1xf32>) -> (tensor<2x6x3x6xf32>) {
  %0 = "tosa.const"() <{values = dense<[[[[687.7012939453125, -839.46728515625, 121.92225646972656], [-283.9854736328125, -856.3114013671875, -580.4012451171875]]]]> : tensor<1x1x2x3xf32>}> : () -> tensor<1x1x2x3xf32>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %3 = "tosa.depthwise_conv2d"(%arg0, %0, %arg1, %1, %2) <{pad = array<i64: 0, 2, 1, 0>, stride = array<i64: 1, 2>, dilation = array<i64: 1, 1>, acc_type = f32, local_bound = false}> : (tensor<2x4x4x2xf32>, tensor<1x1x2x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x3x6xf32>
  return %3 : tensor<2x6x3x6xf32>
}

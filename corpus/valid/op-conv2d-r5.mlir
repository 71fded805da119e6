// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x1x2x1xf16>) -> (tensor<3x1x3x1xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[0.71826171875], [-0.8544921875]], [[-0.6025390625], [-0.2259521484375]]]]> : tensor<1x2x2x1xf16>}> : () -> tensor<1x2x2x1xf16>
  %1 = "tosa.const"() <{values = dense<-0.82666015625> : tensor<1xf16>}> : () -> tensor<1xf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %3 = "tosa.conv2d"(%arg0, %0, %1, %2, %2) <{pad = array<i64: 0, 1, 0, 2>, stride = array<i64: 2, 1>, dilation = array<i64: 1, 1>, acc_type = f32, local_bound = true}> : (tensor<3x1x2x1xf16>, tensor<1x2x2x1xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x1x3x1xf16>
  return %3 : tensor<3x1x3x1xf16>
}

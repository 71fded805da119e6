// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x1x1xf8E4M3FN>) -> (tensor<4x4x3x1xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[0.75], [-0.40625], [0.75]], [[0.234375], [0.34375], [0.5625]], [[0.1171875], [0.6875], [-0.9375]]]]> : tensor<1x3x3x1xf8E4M3FN>}> : () -> tensor<1x3x3x1xf8E4M3FN>
  %1 = "tosa.const"() <{values = dense<-8.921875> : tensor<1xf16>}> : () -> tensor<1xf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %4 = "tosa.transpose_conv2d"(%arg0, %0, %1, %2, %3) <{out_pad = array<i64: 2, -2, 0, 0>, stride = array<i64: 1, 3>, acc_type = f16, local_bound = true}> : (tensor<4x2x1x1xf8E4M3FN>, tensor<1x3x3x1xf8E4M3FN>, tensor<1xf16>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<4x4x3x1xf16>
  return %4 : tensor<4x4x3x1xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x3x1xbf16>) -> (tensor<2x5x6x1xbf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[1.078125], [0.2255859375]], [[-6.90625], [-7.71875]], [[3.1875], [-4.8125]]]]> : tensor<1x3x2x1xbf16>}> : () -> tensor<1x3x2x1xbf16>
  %1 = "tosa.const"() <{values = dense<-3.2300240297573456e38> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %4 = "tosa.transpose_conv2d"(%arg0, %0, %1, %2, %3) <{out_pad = array<i64: 0, -1, 1, -1>, stride = array<i64: 3, 2>, acc_type = f32, local_bound = true}> : (tensor<2x2x3x1xbf16>, tensor<1x3x2x1xbf16>, tensor<1xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x5x6x1xbf16>
  return %4 : tensor<2x5x6x1xbf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x1x2x1xf8E4M3FN>) -> (tensor<2x2x1x2x1xf8E4M3FN>) {
  %0 = "tosa.const"() <{values = dense<"0xC1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1C1EBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEBEB7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C7C"> : tensor<3x3x3x4xf8E4M3FN>}> : () -> tensor<3x3x3x4xf8E4M3FN>
  %1 = "tosa.max_pool2d"(%0) <{kernel = array<i64: 1, 2>, stride = array<i64: 2, 1>, pad = array<i64: 0, 0, 0, 0>, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<3x3x3x4xf8E4M3FN>) -> tensor<3x2x2x4xf8E4M3FN>
  %2 = "tosa.const"() <{values = dense<[[[[0.8125, 2.75, -7.5, 8.0]], [[1.25, -2.25, -7.0, -6.5]], [[-9.0, -9.0, 0.171875, -4.5]]]]> : tensor<1x3x1x4xf8E4M3FN>}> : () -> tensor<1x3x1x4xf8E4M3FN>
  %3 = "tosa.const"() <{values = dense<-0.8310546875> : tensor<1xf16>}> : () -> tensor<1xf16>
  %4 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %5 = "tosa.transpose_conv2d"(%1, %2, %3, %4, %4) <{out_pad = array<i64: 1, -2, 1, 0>, stride = array<i64: 3, 2>, acc_type = f16, local_bound = false}> : (tensor<3x2x2x4xf8E4M3FN>, tensor<1x3x1x4xf8E4M3FN>, tensor<1xf16>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<3x5x4x1xf16>
  return %arg0 : tensor<2x2x1x2x1xf8E4M3FN>
}

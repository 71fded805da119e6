// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x3x1xf32>) -> (tensor<1x2x6x1xf32>) {
  %0 = "tosa.const"() <{values = dense<-7.836055755615234> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %1 = "tosa.const"() <{values = dense<-2.1380418129954957e38> : tensor<1xf32>}> : () -> tensor<1xf32>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %3 = "tosa.conv2d"(%arg0, %0, %1, %2, %2) <{pad = array<i64: 0, 2, 2, 1>, stride = array<i64: 3, 1>, dilation = array<i64: 1, 1>, acc_type = f32, local_bound = true}> : (tensor<1x2x3x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x6x1xf32>
  return %3 : tensor<1x2x6x1xf32>
}

// TOSA MLIR of graph entry point "main" (graph %30)
func.func @main(%arg0: tensor<2x2x2x1xf32>, %arg1: tensor<2x1x1x1xf32>, %arg2: tensor<2xf32>) -> (tensor<2x2x2x2xi1>, tensor<2x2x2x2xi8>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %1 = "tosa.conv2d"(%arg0, %arg1, %arg2, %0, %0) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = f32, local_bound = false}> : (tensor<2x2x2x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x2x2xf32>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %3 = "tosa.greater_equal"(%1, %2) : (tensor<2x2x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<2x2x2x2xi1>
  %4 = "tosa.cast"(%3) : (tensor<2x2x2x2xi1>) -> tensor<2x2x2x2xi8>
  return %3, %4 : tensor<2x2x2x2xi1>, tensor<2x2x2x2xi8>
}

// TOSA MLIR of graph entry point "main" (graph %16)
func.func @main(%arg0: tensor<1x1x2x1xf32>) -> (tensor<1x1x4x1xf32>) {
  %0 = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %2 = "tosa.transpose_conv2d"(%arg0, %0, %1, %1, %1) <{out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 3>, acc_type = f32, local_bound = false}> : (tensor<1x1x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4x1xf32>
  return %2 : tensor<1x1x4x1xf32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x1x1xf32>) -> (tensor<3x2x2x1xf32>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %1 = "tosa.avg_pool2d"(%arg0, %0, %0) <{kernel = array<i64: 2, 2>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 1>, acc_type = f32}> : (tensor<3x3x1x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x2x2x1xf32>
  return %1 : tensor<3x2x2x1xf32>
}

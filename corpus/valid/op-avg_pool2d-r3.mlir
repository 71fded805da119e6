// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x3x4xf8E5M2>) -> (tensor<1x3x3x4xf8E5M2>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %1 = "tosa.avg_pool2d"(%arg0, %0, %0) <{kernel = array<i64: 3, 1>, stride = array<i64: 1, 1>, pad = array<i64: 1, 0, 0, 0>, acc_type = f16}> : (tensor<1x4x3x4xf8E5M2>, tensor<1xf8E5M2>, tensor<1xf8E5M2>) -> tensor<1x3x3x4xf8E5M2>
  return %1 : tensor<1x3x3x4xf8E5M2>
}

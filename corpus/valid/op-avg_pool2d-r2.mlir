// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x1x4x1xf8E4M3FN>) -> (tensor<3x3x5x1xf8E4M3FN>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %1 = "tosa.avg_pool2d"(%arg0, %0, %0) <{kernel = array<i64: 3, 2>, stride = array<i64: 1, 1>, pad = array<i64: 2, 2, 1, 1>, acc_type = f16}> : (tensor<3x1x4x1xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<3x3x5x1xf8E4M3FN>
  return %1 : tensor<3x3x5x1xf8E4M3FN>
}

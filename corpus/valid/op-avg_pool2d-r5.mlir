// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x3x2xf16>) -> (tensor<2x2x2x2xf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %1 = "tosa.avg_pool2d"(%arg0, %0, %0) <{kernel = array<i64: 1, 4>, stride = array<i64: 1, 2>, pad = array<i64: 0, 0, 0, 3>, acc_type = f32}> : (tensor<2x2x3x2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x2x2x2xf16>
  return %1 : tensor<2x2x2x2xf16>
}

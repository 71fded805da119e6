// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x1x1xbf16>) -> (tensor<1x2x2x1xbf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %1 = "tosa.avg_pool2d"(%arg0, %0, %0) <{kernel = array<i64: 2, 3>, stride = array<i64: 4, 1>, pad = array<i64: 1, 1, 1, 2>, acc_type = f32}> : (tensor<1x4x1x1xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x2x2x1xbf16>
  return %1 : tensor<1x2x2x1xbf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x3x2xf16>) -> (tensor<3x2x4x2xf16>) {
  %0 = "tosa.max_pool2d"(%arg0) <{kernel = array<i64: 3, 3>, stride = array<i64: 3, 1>, pad = array<i64: 2, 0, 1, 2>, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<3x4x3x2xf16>) -> tensor<3x2x4x2xf16>
  return %0 : tensor<3x2x4x2xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x2x3xbf16>) -> (tensor<4x4x2x3xbf16>, tensor<4x4x2x3xbf16>) {
  %0 = "tosa.max_pool2d"(%arg0) <{kernel = array<i64: 4, 3>, stride = array<i64: 1, 1>, pad = array<i64: 2, 1, 2, 0>, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<4x4x2x3xbf16>) -> tensor<4x4x2x3xbf16>
  return %0, %0 : tensor<4x4x2x3xbf16>, tensor<4x4x2x3xbf16>
}

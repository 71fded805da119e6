// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x3x3xbf16>) -> (tensor<4x2x2x3xbf16>) {
  %0 = "tosa.max_pool2d"(%arg0) <{kernel = array<i64: 1, 3>, stride = array<i64: 2, 1>, pad = array<i64: 0, 0, 0, 1>, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4x3x3x3xbf16>) -> tensor<4x2x2x3xbf16>
  return %0 : tensor<4x2x2x3xbf16>
}

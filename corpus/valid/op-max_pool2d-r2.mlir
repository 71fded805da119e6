// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x3x2xf8E4M3FN>) -> (tensor<2x3x1x2xf8E4M3FN>) {
  %0 = "tosa.max_pool2d"(%arg0) <{kernel = array<i64: 3, 4>, stride = array<i64: 1, 3>, pad = array<i64: 2, 2, 0, 1>, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<2x1x3x2xf8E4M3FN>) -> tensor<2x3x1x2xf8E4M3FN>
  return %0 : tensor<2x3x1x2xf8E4M3FN>
}

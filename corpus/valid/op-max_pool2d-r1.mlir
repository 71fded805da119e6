// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x1x2xi16>) -> (tensor<3x3x2x2xi16>) {
  %0 = "tosa.max_pool2d"(%arg0) <{kernel = array<i64: 1, 2>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 1>, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<3x3x1x2xi16>) -> tensor<3x3x2x2xi16>
  return %0 : tensor<3x3x2x2xi16>
}

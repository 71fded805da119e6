// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x4x4xi16>) -> (tensor<1x3x2x4xi16>) {
  %0 = "tosa.max_pool2d"(%arg0) <{kernel = array<i64: 1, 7189>, stride = array<i64: 1, 6566>, pad = array<i64: 0, 0, 7134, 6617>, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<1x3x4x4xi16>) -> tensor<1x3x2x4xi16>
  return %0 : tensor<1x3x2x4xi16>
}

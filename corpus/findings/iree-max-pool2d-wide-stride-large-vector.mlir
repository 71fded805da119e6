// TOSA MLIR of graph entry point "main" (graph %20)
func.func @main(%arg0: tensor<1x9x2050x16xi8>) -> (tensor<1x8x2x16xi8>) {
  %0 = "tosa.max_pool2d"(%arg0) <{kernel = array<i64: 2, 2>, stride = array<i64: 1, 2048>, pad = array<i64: 0, 0, 0, 0>, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<1x9x2050x16xi8>) -> tensor<1x8x2x16xi8>
  return %0 : tensor<1x8x2x16xi8>
}

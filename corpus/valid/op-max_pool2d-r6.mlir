// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x4x2xf32>) -> (tensor<4x4x2x2xf32>) {
  %0 = "tosa.max_pool2d"(%arg0) <{kernel = array<i64: 3, 3>, stride = array<i64: 1, 3>, pad = array<i64: 2, 1, 2, 0>, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<4x3x4x2xf32>) -> tensor<4x4x2x2xf32>
  return %0 : tensor<4x4x2x2xf32>
}

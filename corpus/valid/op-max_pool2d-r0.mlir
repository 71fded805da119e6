// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x4x2xi8>) -> (tensor<2x2x2x2xi8>) {
  %0 = "tosa.max_pool2d"(%arg0) <{kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 2, 1, 0, 0>, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<2x1x4x2xi8>) -> tensor<2x2x2x2xi8>
  return %0 : tensor<2x2x2x2xi8>
}

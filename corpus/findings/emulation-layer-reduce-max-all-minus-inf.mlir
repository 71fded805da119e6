// TOSA MLIR of graph entry point "main" (graph %16)
func.func @main(%arg0: tensor<2x3xf32>) -> (tensor<2x1xf32>) {
  %0 = "tosa.reduce_max"(%arg0) <{axis = 1 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

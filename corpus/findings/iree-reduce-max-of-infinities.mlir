// TOSA MLIR of graph entry point "main" (graph %17)
func.func @main(%arg0: tensor<2x3xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>) {
  %0 = "tosa.reduce_max"(%arg0) <{axis = 0 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %1 = "tosa.reduce_min"(%arg0) <{axis = 0 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return %0, %1 : tensor<1x3xf32>, tensor<1x3xf32>
}

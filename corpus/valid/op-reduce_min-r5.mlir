// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1x2x2xf32>) -> (tensor<4x1x2x2xf32>) {
  %0 = "tosa.reduce_min"(%arg0) <{axis = 1 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4x1x2x2xf32>) -> tensor<4x1x2x2xf32>
  return %0 : tensor<4x1x2x2xf32>
}

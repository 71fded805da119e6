// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4x3x3x3xf16>) -> (tensor<2x4x3x1x3xf16>) {
  %0 = "tosa.reduce_min"(%arg0) <{axis = 3 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<2x4x3x3x3xf16>) -> tensor<2x4x3x1x3xf16>
  return %0 : tensor<2x4x3x1x3xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x2x4x1x3xbf16>, %arg1: tensor<1x4x4xbf16>, %arg2: tensor<1x4x4xbf16>) -> (tensor<3x2x2x1x1x3xbf16>) {
  %0 = "tosa.reduce_max"(%arg0) <{axis = 3 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<3x2x2x4x1x3xbf16>) -> tensor<3x2x2x1x1x3xbf16>
  %1 = "tosa.pow"(%arg1, %arg2) : (tensor<1x4x4xbf16>, tensor<1x4x4xbf16>) -> tensor<1x4x4xbf16>
  return %0 : tensor<3x2x2x1x1x3xbf16>
}

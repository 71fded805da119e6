// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x4x4x4xf16>) -> (tensor<2x1x4x4x4xf16>) {
  %0 = "tosa.maximum"(%arg0, %arg0) <{nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<2x1x4x4x4xf16>, tensor<2x1x4x4x4xf16>) -> tensor<2x1x4x4x4xf16>
  return %0 : tensor<2x1x4x4x4xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x4x4xbf16>) -> (tensor<4x2x4x4xbf16>) {
  %0 = "tosa.minimum"(%arg0, %arg0) <{nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4x2x4x4xbf16>, tensor<4x2x4x4xbf16>) -> tensor<4x2x4x4xbf16>
  return %0 : tensor<4x2x4x4xbf16>
}

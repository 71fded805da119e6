// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x4x2x1xbf16>) -> (tensor<3x2x4x2x1xbf16>) {
  %0 = "tosa.clamp"(%arg0) <{min_val = 0.279296875 : bf16, max_val = 0.5546875 : bf16, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<3x2x4x2x1xbf16>) -> tensor<3x2x4x2x1xbf16>
  return %0 : tensor<3x2x4x2x1xbf16>
}

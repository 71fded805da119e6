// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x4x4x1xbf16>) -> (tensor<4x3x4x1xbf16>) {
  %0 = "tosa.const"() <{values = dense<0.1025390625> : tensor<4x3x4x2xbf16>}> : () -> tensor<4x3x4x2xbf16>
  %1 = "tosa.reduce_max"(%0) <{axis = 3 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4x3x4x2xbf16>) -> tensor<4x3x4x1xbf16>
  return %1 : tensor<4x3x4x1xbf16>
}

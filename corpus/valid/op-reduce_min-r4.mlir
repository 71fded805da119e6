// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3xbf16>) -> (tensor<1x3xbf16>) {
  %0 = "tosa.reduce_min"(%arg0) <{axis = 0 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<1x3xbf16>) -> tensor<1x3xbf16>
  return %0 : tensor<1x3xbf16>
}

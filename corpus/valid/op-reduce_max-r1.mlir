// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x4x2x3xi16>) -> (tensor<2x1x1x2x3xi16>) {
  %0 = "tosa.reduce_max"(%arg0) <{axis = 2 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<2x1x4x2x3xi16>) -> tensor<2x1x1x2x3xi16>
  return %0 : tensor<2x1x1x2x3xi16>
}

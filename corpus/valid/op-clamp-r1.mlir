// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3xi16>) -> (tensor<4x2x3x2x3xi16>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<4x2x3x2x3xi16>}> : () -> tensor<4x2x3x2x3xi16>
  %1 = "tosa.clamp"(%0) <{min_val = -3798 : i16, max_val = 25096 : i16, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4x2x3x2x3xi16>) -> tensor<4x2x3x2x3xi16>
  return %1 : tensor<4x2x3x2x3xi16>
}

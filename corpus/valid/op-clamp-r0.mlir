// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2xi8>) -> (tensor<2x2xi8>) {
  %0 = "tosa.clamp"(%arg0) <{min_val = -80 : i8, max_val = 99 : i8, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

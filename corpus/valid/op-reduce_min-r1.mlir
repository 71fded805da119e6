// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1xi16>) -> (tensor<1xi16>) {
  %0 = "tosa.reduce_min"(%arg0) <{axis = 0 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<1xi16>) -> tensor<1xi16>
  return %0 : tensor<1xi16>
}

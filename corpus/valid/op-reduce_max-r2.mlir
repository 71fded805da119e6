// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x4x3xi32>) -> (tensor<1x3x4x1xi32>) {
  %0 = "tosa.reduce_max"(%arg0) <{axis = 3 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<1x3x4x3xi32>) -> tensor<1x3x4x1xi32>
  return %0 : tensor<1x3x4x1xi32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4x4xf8E4M3FN>) -> (tensor<2x4xi32>) {
  %0 = "tosa.argmax"(%arg0) <{axis = 1 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<2x4x4xf8E4M3FN>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

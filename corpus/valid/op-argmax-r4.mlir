// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x3xf16>) -> (tensor<2x3xi32>) {
  %0 = "tosa.argmax"(%arg0) <{axis = 0 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<1x2x3xf16>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x4x1x1xf8E5M2>) -> (tensor<2x2x1x1xi32>) {
  %0 = "tosa.argmax"(%arg0) <{axis = 2 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<2x2x4x1x1xf8E5M2>) -> tensor<2x2x1x1xi32>
  return %0 : tensor<2x2x1x1xi32>
}

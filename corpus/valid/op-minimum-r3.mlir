// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x4x3x3xf32>) -> (tensor<1x2x4x3x3xf32>) {
  %0 = "tosa.minimum"(%arg0, %arg0) <{nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<1x2x4x3x3xf32>, tensor<1x2x4x3x3xf32>) -> tensor<1x2x4x3x3xf32>
  return %0 : tensor<1x2x4x3x3xf32>
}

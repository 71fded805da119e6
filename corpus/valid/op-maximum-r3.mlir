// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x4x2xf32>, %arg1: tensor<4x3x4x1xf32>) -> (tensor<4x3x4x2xf32>) {
  %0 = "tosa.maximum"(%arg0, %arg1) <{nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4x3x4x2xf32>, tensor<4x3x4x1xf32>) -> tensor<4x3x4x2xf32>
  return %0 : tensor<4x3x4x2xf32>
}

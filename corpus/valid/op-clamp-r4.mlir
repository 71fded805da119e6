// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4x1x3xf32>) -> (tensor<2x4x1x3xf32>) {
  %0 = "tosa.clamp"(%arg0) <{min_val = -849.4164428710938 : f32, max_val = 737.5546875 : f32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<2x4x1x3xf32>) -> tensor<2x4x1x3xf32>
  return %0 : tensor<2x4x1x3xf32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x1x4xbf16>) -> (tensor<3x1x4xf32>) {
  %0 = "tosa.cast"(%arg0) : (tensor<3x1x4xbf16>) -> tensor<3x1x4xf32>
  return %0 : tensor<3x1x4xf32>
}

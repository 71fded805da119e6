// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x1x1x4xbf16>) -> (tensor<3x3x1x1x4xbf16>) {
  %0 = "tosa.log"(%arg0) : (tensor<3x3x1x1x4xbf16>) -> tensor<3x3x1x1x4xbf16>
  return %0 : tensor<3x3x1x1x4xbf16>
}

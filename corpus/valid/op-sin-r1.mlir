// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x4xbf16>) -> (tensor<4x3x4xbf16>) {
  %0 = "tosa.sin"(%arg0) : (tensor<4x3x4xbf16>) -> tensor<4x3x4xbf16>
  return %0 : tensor<4x3x4xbf16>
}

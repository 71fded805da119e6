// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x2x4x1xbf16>) -> (tensor<2x3x2x4x1xi16>) {
  %0 = "tosa.cast"(%arg0) : (tensor<2x3x2x4x1xbf16>) -> tensor<2x3x2x4x1xi16>
  return %0 : tensor<2x3x2x4x1xi16>
}

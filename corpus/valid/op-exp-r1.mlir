// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x1xbf16>) -> (tensor<3x2x1xbf16>) {
  %0 = "tosa.exp"(%arg0) : (tensor<3x2x1xbf16>) -> tensor<3x2x1xbf16>
  return %0 : tensor<3x2x1xbf16>
}

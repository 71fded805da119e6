// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x2x2xbf16>) -> (tensor<1x3x2x2xbf16>) {
  %0 = "tosa.sigmoid"(%arg0) : (tensor<1x3x2x2xbf16>) -> tensor<1x3x2x2xbf16>
  return %0 : tensor<1x3x2x2xbf16>
}

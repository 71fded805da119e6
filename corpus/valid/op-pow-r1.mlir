// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x2x2xbf16>) -> (tensor<2x3x2x2xbf16>) {
  %0 = "tosa.pow"(%arg0, %arg0) : (tensor<2x3x2x2xbf16>, tensor<2x3x2x2xbf16>) -> tensor<2x3x2x2xbf16>
  return %0 : tensor<2x3x2x2xbf16>
}

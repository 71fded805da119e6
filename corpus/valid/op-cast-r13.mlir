// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xi16>) -> (tensor<2xbf16>) {
  %0 = "tosa.cast"(%arg0) : (tensor<2xi16>) -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

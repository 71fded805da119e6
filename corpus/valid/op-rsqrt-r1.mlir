// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xbf16>) -> (tensor<2xbf16>) {
  %0 = "tosa.rsqrt"(%arg0) : (tensor<2xbf16>) -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x3xi8>) -> (tensor<2x3x3xf16>) {
  %0 = "tosa.cast"(%arg0) : (tensor<2x3x3xi8>) -> tensor<2x3x3xf16>
  return %0 : tensor<2x3x3xf16>
}

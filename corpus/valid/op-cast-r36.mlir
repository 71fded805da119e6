// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2xf16>) -> (tensor<2x2xf8E4M3FN>) {
  %0 = "tosa.cast"(%arg0) : (tensor<2x2xf16>) -> tensor<2x2xf8E4M3FN>
  return %0 : tensor<2x2xf8E4M3FN>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2xf16>) -> (tensor<2x2xi16>) {
  %0 = "tosa.cast"(%arg0) : (tensor<2x2xf16>) -> tensor<2x2xi16>
  return %0 : tensor<2x2xi16>
}

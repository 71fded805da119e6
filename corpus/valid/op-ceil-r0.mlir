// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x1x3x3x2xf16>) -> (tensor<1x1x3x3x2xf16>) {
  %0 = "tosa.ceil"(%arg0) : (tensor<1x1x3x3x2xf16>) -> tensor<1x1x3x3x2xf16>
  return %0 : tensor<1x1x3x3x2xf16>
}

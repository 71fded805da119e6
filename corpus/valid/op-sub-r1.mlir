// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x1x1x2xf16>) -> (tensor<2x3x1x1x2xf16>) {
  %0 = "tosa.sub"(%arg0, %arg0) : (tensor<2x3x1x1x2xf16>, tensor<2x3x1x1x2xf16>) -> tensor<2x3x1x1x2xf16>
  return %0 : tensor<2x3x1x1x2xf16>
}

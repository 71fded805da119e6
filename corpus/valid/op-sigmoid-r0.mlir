// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x1x1xf16>) -> (tensor<3x2x1x1xf16>) {
  %0 = "tosa.sigmoid"(%arg0) : (tensor<3x2x1x1xf16>) -> tensor<3x2x1x1xf16>
  return %0 : tensor<3x2x1x1xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x4x1xf16>) -> (tensor<1x2x4x1xf16>) {
  %0 = "tosa.floor"(%arg0) : (tensor<1x2x4x1xf16>) -> tensor<1x2x4x1xf16>
  return %0 : tensor<1x2x4x1xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x3x2xi32>) -> (tensor<1x4x3x2xbf16>) {
  %0 = "tosa.cast"(%arg0) : (tensor<1x4x3x2xi32>) -> tensor<1x4x3x2xbf16>
  return %0 : tensor<1x4x3x2xbf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x4x3x1xf8E5M2>) -> (tensor<4x2x4x3x1xbf16>) {
  %0 = "tosa.cast"(%arg0) : (tensor<4x2x4x3x1xf8E5M2>) -> tensor<4x2x4x3x1xbf16>
  return %0 : tensor<4x2x4x3x1xbf16>
}

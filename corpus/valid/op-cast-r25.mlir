// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4xbf16>) -> (tensor<4x4xf8E5M2>) {
  %0 = "tosa.cast"(%arg0) : (tensor<4x4xbf16>) -> tensor<4x4xf8E5M2>
  return %0 : tensor<4x4xf8E5M2>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x4x1xf8E4M3FN>) -> (tensor<4x4x4x1xf16>) {
  %0 = "tosa.cast"(%arg0) : (tensor<4x4x4x1xf8E4M3FN>) -> tensor<4x4x4x1xf16>
  return %0 : tensor<4x4x4x1xf16>
}

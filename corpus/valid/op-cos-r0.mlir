// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1x3x2x4xf16>) -> (tensor<4x1x3x2x4xf16>) {
  %0 = "tosa.cos"(%arg0) : (tensor<4x1x3x2x4xf16>) -> tensor<4x1x3x2x4xf16>
  return %0 : tensor<4x1x3x2x4xf16>
}

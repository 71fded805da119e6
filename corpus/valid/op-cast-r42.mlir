// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x4xf32>) -> (tensor<2x3x4xf8E4M3FN>) {
  %0 = "tosa.cast"(%arg0) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf8E4M3FN>
  return %0 : tensor<2x3x4xf8E4M3FN>
}

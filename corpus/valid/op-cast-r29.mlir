// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xf8E4M3FN>) -> (tensor<2xf32>) {
  %0 = "tosa.cast"(%arg0) : (tensor<2xf8E4M3FN>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

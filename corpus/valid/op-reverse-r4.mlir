// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x3x1xf8E4M3FN>) -> (tensor<1x3x3x1xf8E4M3FN>) {
  %0 = "tosa.reverse"(%arg0) <{axis = 1 : i32}> : (tensor<1x3x3x1xf8E4M3FN>) -> tensor<1x3x3x1xf8E4M3FN>
  return %0 : tensor<1x3x3x1xf8E4M3FN>
}

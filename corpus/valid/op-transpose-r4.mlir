// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x2x4xf8E4M3FN>) -> (tensor<2x4x2x2xf8E4M3FN>) {
  %0 = "tosa.transpose"(%arg0) <{perms = array<i32: 0, 3, 1, 2>}> : (tensor<2x2x2x4xf8E4M3FN>) -> tensor<2x4x2x2xf8E4M3FN>
  return %0 : tensor<2x4x2x2xf8E4M3FN>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x3xi1>) -> (tensor<4x3x3xi1>) {
  %0 = "tosa.transpose"(%arg0) <{perms = array<i32: 0, 2, 1>}> : (tensor<4x3x3xi1>) -> tensor<4x3x3xi1>
  return %0 : tensor<4x3x3xi1>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4xi1>) -> (tensor<4xi1>) {
  %0 = "tosa.logical_xor"(%arg0, %arg0) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

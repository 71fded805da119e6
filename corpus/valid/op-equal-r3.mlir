// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xf32>) -> (tensor<3xi1>) {
  %0 = "tosa.equal"(%arg0, %arg0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

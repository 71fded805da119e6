// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2xf32>) -> (tensor<4x2xi1>) {
  %0 = "tosa.greater_equal"(%arg0, %arg0) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xi1>
  return %0 : tensor<4x2xi1>
}

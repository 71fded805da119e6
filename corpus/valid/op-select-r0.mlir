// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x1x1x2xi1>, %arg1: tensor<4x1x1x1x2xi1>) -> (tensor<4x2x1x1x2xi1>) {
  %0 = "tosa.select"(%arg1, %arg0, %arg0) : (tensor<4x1x1x1x2xi1>, tensor<4x2x1x1x2xi1>, tensor<4x2x1x1x2xi1>) -> tensor<4x2x1x1x2xi1>
  return %0 : tensor<4x2x1x1x2xi1>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1x2xi32>, %arg1: tensor<4x1xi32>) -> (tensor<4x1x2xi32>) {
  %0 = "tosa.scatter"(%arg0, %arg1, %arg0) : (tensor<4x1x2xi32>, tensor<4x1xi32>, tensor<4x1x2xi32>) -> tensor<4x1x2xi32>
  return %0 : tensor<4x1x2xi32>
}

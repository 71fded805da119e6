// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x1x3x2xi32>) -> (tensor<4x3x1x3x2xi32>) {
  %0 = "tosa.bitwise_and"(%arg0, %arg0) : (tensor<4x3x1x3x2xi32>, tensor<4x3x1x3x2xi32>) -> tensor<4x3x1x3x2xi32>
  return %0 : tensor<4x3x1x3x2xi32>
}

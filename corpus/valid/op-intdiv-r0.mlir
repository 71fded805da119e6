// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x1xi32>, %arg1: tensor<4x2x1xi32>) -> (tensor<4x2x1xi32>) {
  %0 = "tosa.intdiv"(%arg0, %arg1) : (tensor<4x2x1xi32>, tensor<4x2x1xi32>) -> tensor<4x2x1xi32>
  return %0 : tensor<4x2x1xi32>
}

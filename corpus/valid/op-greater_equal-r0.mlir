// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x4x1x1xi32>) -> (tensor<1x3x4x1x1xi1>) {
  %0 = "tosa.greater_equal"(%arg0, %arg0) : (tensor<1x3x4x1x1xi32>, tensor<1x3x4x1x1xi32>) -> tensor<1x3x4x1x1xi1>
  return %0 : tensor<1x3x4x1x1xi1>
}

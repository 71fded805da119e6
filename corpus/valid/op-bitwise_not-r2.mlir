// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1xi32>) -> (tensor<2x1xi32>) {
  %0 = "tosa.bitwise_not"(%arg0) : (tensor<2x1xi32>) -> tensor<2x1xi32>
  return %0 : tensor<2x1xi32>
}

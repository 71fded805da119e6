// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x1x1xi32>, %arg1: tensor<2x2x1x1xi32>) -> (tensor<2x2x1x1xi32>) {
  %0 = "tosa.arithmetic_right_shift"(%arg0, %arg1) <{round = true}> : (tensor<2x2x1x1xi32>, tensor<2x2x1x1xi32>) -> tensor<2x2x1x1xi32>
  return %0 : tensor<2x2x1x1xi32>
}

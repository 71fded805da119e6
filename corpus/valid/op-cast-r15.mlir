// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2xi32>) -> (tensor<2x2x3x1xi1>) {
  %0 = "tosa.const"() <{values = dense<[[[[-23204], [-23204], [-23204]], [[-23204], [-23204], [-23204]]], [[[-7219], [-7219], [-7219]], [[-7219], [-7219], [-7219]]]]> : tensor<2x2x3x1xi32>}> : () -> tensor<2x2x3x1xi32>
  %1 = tosa.cast %0 : (tensor<2x2x3x1xi32>) -> tensor<2x2x3x1xi1>
  return %1 : tensor<2x2x3x1xi1>
}

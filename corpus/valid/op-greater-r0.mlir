// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4xi32>) -> (tensor<3x3xi1>) {
  %0 = "tosa.const"() <{values = dense<[[0, 0, 0], [8162, 8162, 8162], [-23391, -23391, -23391]]> : tensor<3x3xi32>}> : () -> tensor<3x3xi32>
  %1 = tosa.greater %0, %0 : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  return %1 : tensor<3x3xi1>
}

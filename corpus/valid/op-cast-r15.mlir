// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xi32>) -> (tensor<2x2x3x1xi1>) {
  %0 = "tosa.const"() <{values = dense<[[[[-7826], [-23204], [1177]], [[-7219], [-8366], [-12246]]], [[[29565], [-27653], [16887]], [[2492], [-13869], [1568]]]]> : tensor<2x2x3x1xi32>}> : () -> tensor<2x2x3x1xi32>
  %1 = "tosa.cast"(%0) : (tensor<2x2x3x1xi32>) -> tensor<2x2x3x1xi1>
  return %1 : tensor<2x2x3x1xi1>
}

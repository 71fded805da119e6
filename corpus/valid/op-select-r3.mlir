// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x3x2xi32>) -> (tensor<2x1x3x2xi32>) {
  %0 = "tosa.const"() <{values = dense<[[[[true, false], [false, true], [false, true]]], [[[true, false], [false, false], [true, true]]]]> : tensor<2x1x3x2xi1>}> : () -> tensor<2x1x3x2xi1>
  %1 = "tosa.select"(%0, %arg0, %arg0) : (tensor<2x1x3x2xi1>, tensor<2x1x3x2xi32>, tensor<2x1x3x2xi32>) -> tensor<2x1x3x2xi32>
  return %1 : tensor<2x1x3x2xi32>
}

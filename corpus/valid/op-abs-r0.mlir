// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4x2x2x3xi32>) -> (tensor<4x1x1xi32>) {
  %0 = "tosa.const"() <{values = dense<[[[-131207030]], [[2104213223]], [[-2005223840]], [[1330571787]]]> : tensor<4x1x1xi32>}> : () -> tensor<4x1x1xi32>
  %1 = "tosa.abs"(%0) : (tensor<4x1x1xi32>) -> tensor<4x1x1xi32>
  return %1 : tensor<4x1x1xi32>
}

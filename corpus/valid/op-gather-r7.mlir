// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x2xf32>) -> (tensor<3x1x2xf32>) {
  %0 = "tosa.const"() <{values = dense<2> : tensor<3x1xi32>}> : () -> tensor<3x1xi32>
  %1 = "tosa.gather"(%arg0, %0) : (tensor<3x3x2xf32>, tensor<3x1xi32>) -> tensor<3x1x2xf32>
  return %1 : tensor<3x1x2xf32>
}

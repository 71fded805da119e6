// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x1x4xf32>) -> (tensor<3x2x1x4xf32>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %2 = "tosa.negate"(%arg0, %0, %1) : (tensor<3x2x1x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x2x1x4xf32>
  return %2 : tensor<3x2x1x4xf32>
}

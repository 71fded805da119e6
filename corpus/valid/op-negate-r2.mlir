// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3xi32>) -> (tensor<4x2xi32>) {
  %0 = "tosa.const"() <{values = dense<1113917305> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %2 = "tosa.negate"(%0, %1, %1) : (tensor<4x2xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4x2xi32>
  return %2 : tensor<4x2xi32>
}

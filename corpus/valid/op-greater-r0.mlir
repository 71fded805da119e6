// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3xi32>) -> (tensor<3x3xi1>) {
  %0 = "tosa.const"() <{values = dense<[[-19536, 10346, 8162], [9602, -23391, 14670], [-16125, -28327, 11708]]> : tensor<3x3xi32>}> : () -> tensor<3x3xi32>
  %1 = "tosa.greater"(%0, %arg0) : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  return %1 : tensor<3x3xi1>
}

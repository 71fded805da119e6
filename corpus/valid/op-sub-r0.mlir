// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2xi32>) -> (tensor<3x2xi32>) {
  %0 = "tosa.const"() <{values = dense<[[-564610625, -254707585], [-425568839, -570610449], [-393171730, -238642920]]> : tensor<3x2xi32>}> : () -> tensor<3x2xi32>
  %1 = "tosa.sub"(%arg0, %0) : (tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  return %1 : tensor<3x2xi32>
}

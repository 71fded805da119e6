// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x4x3x2xi32>) -> (tensor<1x2x3xi32>) {
  %0 = "tosa.const"() <{values = dense<[[[48, 58, 75]], [[49, -25, 55]]]> : tensor<2x1x3xi32>}> : () -> tensor<2x1x3xi32>
  %1 = "tosa.transpose"(%0) <{perms = array<i32: 1, 0, 2>}> : (tensor<2x1x3xi32>) -> tensor<1x2x3xi32>
  return %1 : tensor<1x2x3xi32>
}

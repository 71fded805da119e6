// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4xi32>) -> (tensor<2x1x3xi32>) {
  %0 = "tosa.const"() <{values = dense<[[[48, 58, 75]], [[49, -25, 55]]]> : tensor<2x1x3xi32>}> : () -> tensor<2x1x3xi32>
  %1 = tosa.transpose %0 {perms = array<i32: 0, 1, 2>} : (tensor<2x1x3xi32>) -> tensor<2x1x3xi32>
  return %1 : tensor<2x1x3xi32>
}

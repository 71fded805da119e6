// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4xi32>) -> (tensor<4xi32>) {
  %0 = "tosa.const"() <{values = dense<[10, 2, 23, 18]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %1 = "tosa.logical_right_shift"(%arg0, %0) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

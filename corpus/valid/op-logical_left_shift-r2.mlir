// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x4xi32>, %arg1: tensor<3x2x1xi32>) -> (tensor<3x2x4xi32>) {
  %0 = "tosa.logical_left_shift"(%arg0, %arg1) : (tensor<3x2x4xi32>, tensor<3x2x1xi32>) -> tensor<3x2x4xi32>
  return %0 : tensor<3x2x4xi32>
}

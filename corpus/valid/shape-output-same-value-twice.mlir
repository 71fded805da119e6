// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x3x4x1xf32>) -> (tensor<4x3x3x4x1xf32>, tensor<4x3x3x4x1xf32>) {
  %0 = "tosa.log"(%arg0) : (tensor<4x3x3x4x1xf32>) -> tensor<4x3x3x4x1xf32>
  return %arg0, %arg0 : tensor<4x3x3x4x1xf32>, tensor<4x3x3x4x1xf32>
}

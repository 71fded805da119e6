// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x2x1xf32>) -> (tensor<4x2x2x1xf32>) {
  %0 = "tosa.sub"(%arg0, %arg0) : (tensor<4x2x2x1xf32>, tensor<4x2x2x1xf32>) -> tensor<4x2x2x1xf32>
  return %0 : tensor<4x2x2x1xf32>
}

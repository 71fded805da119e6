// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x1x2xf32>) -> (tensor<4x4x1x2xf32>) {
  %0 = "tosa.reciprocal"(%arg0) : (tensor<4x4x1x2xf32>) -> tensor<4x4x1x2xf32>
  return %0 : tensor<4x4x1x2xf32>
}

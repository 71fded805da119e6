// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x3x3x2xf32>) -> (tensor<4x2x3x3x2xf32>) {
  %0 = "tosa.sigmoid"(%arg0) : (tensor<4x2x3x3x2xf32>) -> tensor<4x2x3x3x2xf32>
  return %0 : tensor<4x2x3x3x2xf32>
}

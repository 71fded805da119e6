// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x2xf32>) -> (tensor<3x3x2xf32>) {
  %0 = "tosa.sin"(%arg0) : (tensor<3x3x2xf32>) -> tensor<3x3x2xf32>
  return %0 : tensor<3x3x2xf32>
}

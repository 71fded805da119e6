// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x1x4x3xf32>) -> (tensor<3x4x1x4x3xi16>) {
  %0 = "tosa.cast"(%arg0) : (tensor<3x4x1x4x3xf32>) -> tensor<3x4x1x4x3xi16>
  return %0 : tensor<3x4x1x4x3xi16>
}

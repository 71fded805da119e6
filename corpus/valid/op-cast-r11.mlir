// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1x4x1xi16>) -> (tensor<4x1x4x1xi32>) {
  %0 = "tosa.cast"(%arg0) : (tensor<4x1x4x1xi16>) -> tensor<4x1x4x1xi32>
  return %0 : tensor<4x1x4x1xi32>
}

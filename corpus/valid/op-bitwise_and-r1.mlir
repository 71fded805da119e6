// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1x4x2x1xi16>) -> (tensor<4x1x4x2x1xi16>) {
  %0 = "tosa.bitwise_and"(%arg0, %arg0) : (tensor<4x1x4x2x1xi16>, tensor<4x1x4x2x1xi16>) -> tensor<4x1x4x2x1xi16>
  return %0 : tensor<4x1x4x2x1xi16>
}

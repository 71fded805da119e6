// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x2x2x4xi16>, %arg1: tensor<2x3x1x2x4xi16>) -> (tensor<2x3x2x2x4xi16>) {
  %0 = "tosa.bitwise_or"(%arg0, %arg1) : (tensor<2x3x2x2x4xi16>, tensor<2x3x1x2x4xi16>) -> tensor<2x3x2x2x4xi16>
  return %0 : tensor<2x3x2x2x4xi16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x4xi16>, %arg1: tensor<2x3xi32>) -> (tensor<2x3x4xi16>) {
  %0 = "tosa.gather"(%arg0, %arg1) : (tensor<2x1x4xi16>, tensor<2x3xi32>) -> tensor<2x3x4xi16>
  return %0 : tensor<2x3x4xi16>
}

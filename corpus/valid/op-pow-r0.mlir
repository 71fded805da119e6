// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3xf16>, %arg1: tensor<3x1xf16>) -> (tensor<3x3xf16>) {
  %0 = "tosa.pow"(%arg0, %arg1) : (tensor<3x3xf16>, tensor<3x1xf16>) -> tensor<3x3xf16>
  return %0 : tensor<3x3xf16>
}

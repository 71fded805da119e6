// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2xbf16>, %arg1: tensor<3x1xi1>) -> (tensor<3x2xbf16>) {
  %0 = "tosa.select"(%arg1, %arg0, %arg0) : (tensor<3x1xi1>, tensor<3x2xbf16>, tensor<3x2xbf16>) -> tensor<3x2xbf16>
  return %0 : tensor<3x2xbf16>
}

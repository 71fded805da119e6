// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x2x2xf16>, %arg1: tensor<3x1x2x2xi1>) -> (tensor<3x4x2x2xf16>) {
  %0 = "tosa.select"(%arg1, %arg0, %arg0) : (tensor<3x1x2x2xi1>, tensor<3x4x2x2xf16>, tensor<3x4x2x2xf16>) -> tensor<3x4x2x2xf16>
  return %0 : tensor<3x4x2x2xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x3x3x2xf16>) -> (tensor<4x3x3x3x2xf16>) {
  %0 = "tosa.add"(%arg0, %arg0) : (tensor<4x3x3x3x2xf16>, tensor<4x3x3x3x2xf16>) -> tensor<4x3x3x3x2xf16>
  return %0 : tensor<4x3x3x3x2xf16>
}

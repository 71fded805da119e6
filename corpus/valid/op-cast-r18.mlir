// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4xi32>) -> (tensor<3x4xf16>) {
  %0 = "tosa.cast"(%arg0) : (tensor<3x4xi32>) -> tensor<3x4xf16>
  return %0 : tensor<3x4xf16>
}

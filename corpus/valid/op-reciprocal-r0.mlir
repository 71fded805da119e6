// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xf16>) -> (tensor<3xf16>) {
  %0 = "tosa.reciprocal"(%arg0) : (tensor<3xf16>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xf16>) -> (tensor<2xf16>) {
  %0 = "tosa.log"(%arg0) : (tensor<2xf16>) -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

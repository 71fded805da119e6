// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xf16>) -> (tensor<2xi1>) {
  %0 = "tosa.greater"(%arg0, %arg0) : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x1x4x4xbf16>) -> (tensor<1x3x1x4x4xi1>) {
  %0 = "tosa.greater"(%arg0, %arg0) : (tensor<1x3x1x4x4xbf16>, tensor<1x3x1x4x4xbf16>) -> tensor<1x3x1x4x4xi1>
  return %0 : tensor<1x3x1x4x4xi1>
}

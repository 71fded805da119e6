// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x4xbf16>) -> (tensor<1x4x4xbf16>) {
  %0 = "tosa.add"(%arg0, %arg0) : (tensor<1x4x4xbf16>, tensor<1x4x4xbf16>) -> tensor<1x4x4xbf16>
  return %0 : tensor<1x4x4xbf16>
}

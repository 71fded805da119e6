// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x1xf16>, %arg1: tensor<1x3xi32>) -> (tensor<1x3x1xf16>) {
  %0 = "tosa.gather"(%arg0, %arg1) : (tensor<1x4x1xf16>, tensor<1x3xi32>) -> tensor<1x3x1xf16>
  return %0 : tensor<1x3x1xf16>
}

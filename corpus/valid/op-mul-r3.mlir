// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x3x1x4xf16>, %arg1: tensor<1x1x3x1x4xf16>) -> (tensor<2x1x3x1x4xf16>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = "tosa.mul"(%arg0, %arg1, %0) : (tensor<2x1x3x1x4xf16>, tensor<1x1x3x1x4xf16>, tensor<1xi8>) -> tensor<2x1x3x1x4xf16>
  return %1 : tensor<2x1x3x1x4xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x4xf16>, %arg1: tensor<3x1xi32>) -> (tensor<3x2x4xf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<3x1x4xf16>}> : () -> tensor<3x1x4xf16>
  %1 = "tosa.scatter"(%arg0, %arg1, %0) : (tensor<3x2x4xf16>, tensor<3x1xi32>, tensor<3x1x4xf16>) -> tensor<3x2x4xf16>
  return %1 : tensor<3x2x4xf16>
}

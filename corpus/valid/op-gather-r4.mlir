// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x4xf8E5M2>) -> (tensor<1x1x4xf8E5M2>) {
  %0 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %1 = "tosa.gather"(%arg0, %0) : (tensor<1x2x4xf8E5M2>, tensor<1x1xi32>) -> tensor<1x1x4xf8E5M2>
  return %1 : tensor<1x1x4xf8E5M2>
}

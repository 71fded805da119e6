// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2xf8E5M2>) -> (tensor<3x1x1xf8E5M2>) {
  %0 = "tosa.const"() <{values = dense<-256.0> : tensor<3x1x1xf8E5M2>}> : () -> tensor<3x1x1xf8E5M2>
  %1 = "tosa.const"() <{values = dense<0> : tensor<3x1xi32>}> : () -> tensor<3x1xi32>
  %2 = "tosa.scatter"(%0, %1, %0) : (tensor<3x1x1xf8E5M2>, tensor<3x1xi32>, tensor<3x1x1xf8E5M2>) -> tensor<3x1x1xf8E5M2>
  return %2 : tensor<3x1x1xf8E5M2>
}

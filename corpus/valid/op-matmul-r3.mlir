// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x2xf8E5M2>) -> (tensor<3x2x1xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[-0.625], [0.125]], [[0.5], [-0.125]], [[-0.875], [0.03125]]]> : tensor<3x2x1xf8E5M2>}> : () -> tensor<3x2x1xf8E5M2>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %2 = "tosa.matmul"(%arg0, %0, %1, %1) : (tensor<3x2x2xf8E5M2>, tensor<3x2x1xf8E5M2>, tensor<1xf8E5M2>, tensor<1xf8E5M2>) -> tensor<3x2x1xf16>
  return %2 : tensor<3x2x1xf16>
}

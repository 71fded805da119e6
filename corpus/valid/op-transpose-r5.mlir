// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x3x3x2xf8E5M2>) -> (tensor<3x1xf8E5M2>) {
  %0 = "tosa.const"() <{values = dense<[[-0.21875, 0.625, -0.5]]> : tensor<1x3xf8E5M2>}> : () -> tensor<1x3xf8E5M2>
  %1 = "tosa.transpose"(%0) <{perms = array<i32: 1, 0>}> : (tensor<1x3xf8E5M2>) -> tensor<3x1xf8E5M2>
  return %1 : tensor<3x1xf8E5M2>
}

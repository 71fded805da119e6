// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x4x1x4xf16>) -> (tensor<1x4x4x4x4xf16>) {
  %0 = "tosa.transpose"(%arg0) <{perms = array<i32: 3, 2, 1, 4, 0>}> : (tensor<4x4x4x1x4xf16>) -> tensor<1x4x4x4x4xf16>
  return %0 : tensor<1x4x4x4x4xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x1x2x1x3xf8E5M2>) -> (tensor<3x1x2x1x3xf8E5M2>) {
  %0 = "tosa.cast"(%arg0) : (tensor<3x1x2x1x3xf8E5M2>) -> tensor<3x1x2x1x3xf32>
  %1 = "tosa.cast"(%0) : (tensor<3x1x2x1x3xf32>) -> tensor<3x1x2x1x3xf8E4M3FN>
  %2 = "tosa.transpose"(%1) <{perms = array<i32: 2, 1, 4, 0, 3>}> : (tensor<3x1x2x1x3xf8E4M3FN>) -> tensor<2x1x3x3x1xf8E4M3FN>
  return %arg0 : tensor<3x1x2x1x3xf8E5M2>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1xbf16>) -> (tensor<1xbf16>) {
  %0 = "tosa.transpose"(%arg0) <{perms = array<i32: 0>}> : (tensor<1xbf16>) -> tensor<1xbf16>
  return %0 : tensor<1xbf16>
}

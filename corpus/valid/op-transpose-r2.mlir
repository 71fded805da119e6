// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x1x4xi16>) -> (tensor<1x1x4xi16>) {
  %0 = "tosa.transpose"(%arg0) <{perms = array<i32: 1, 0, 2>}> : (tensor<1x1x4xi16>) -> tensor<1x1x4xi16>
  return %0 : tensor<1x1x4xi16>
}

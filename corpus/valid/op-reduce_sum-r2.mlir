// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x1x2xbf16>) -> (tensor<4x1x1x2xbf16>) {
  %0 = "tosa.reduce_sum"(%arg0) <{axis = 1 : i32}> : (tensor<4x4x1x2xbf16>) -> tensor<4x1x1x2xbf16>
  return %0 : tensor<4x1x1x2xbf16>
}

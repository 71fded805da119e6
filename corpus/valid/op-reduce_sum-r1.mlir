// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x3x2x2xf16>) -> (tensor<2x2x3x1x2xf16>) {
  %0 = "tosa.reduce_sum"(%arg0) <{axis = 3 : i32}> : (tensor<2x2x3x2x2xf16>) -> tensor<2x2x3x1x2xf16>
  return %0 : tensor<2x2x3x1x2xf16>
}

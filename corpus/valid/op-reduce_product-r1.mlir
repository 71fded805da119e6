// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x4xbf16>) -> (tensor<1x3x4xbf16>) {
  %0 = "tosa.reduce_product"(%arg0) <{axis = 0 : i32}> : (tensor<2x3x4xbf16>) -> tensor<1x3x4xbf16>
  return %0 : tensor<1x3x4xbf16>
}

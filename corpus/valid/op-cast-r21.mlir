// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x3x1x4xbf16>) -> (tensor<4x1x4xi8>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<4x1x4xbf16>}> : () -> tensor<4x1x4xbf16>
  %1 = "tosa.cast"(%0) : (tensor<4x1x4xbf16>) -> tensor<4x1x4xi8>
  return %1 : tensor<4x1x4xi8>
}

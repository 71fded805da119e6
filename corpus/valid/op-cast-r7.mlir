// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x3x2x1xi8>) -> (tensor<2x1x2x2x1xbf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[[-127], [120]], [[-90], [-57]]]], [[[[59], [-36]], [[37], [94]]]]]> : tensor<2x1x2x2x1xi8>}> : () -> tensor<2x1x2x2x1xi8>
  %1 = "tosa.cast"(%0) : (tensor<2x1x2x2x1xi8>) -> tensor<2x1x2x2x1xbf16>
  return %1 : tensor<2x1x2x2x1xbf16>
}

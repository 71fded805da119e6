// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3xf8E4M3FN>) -> (tensor<2x4x3xf8E4M3FN>) {
  %0 = "tosa.const"() <{values = dense<[[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[256.0, -128.0, 224.0], [224.0, -416.0, 52.0]]]> : tensor<2x2x3xf8E4M3FN>}> : () -> tensor<2x2x3xf8E4M3FN>
  %1 = "tosa.const"() <{values = dense<[[0, 1, 1, 1], [0, 0, 1, 0]]> : tensor<2x4xi32>}> : () -> tensor<2x4xi32>
  %2 = tosa.gather %0, %1 : (tensor<2x2x3xf8E4M3FN>, tensor<2x4xi32>) -> tensor<2x4x3xf8E4M3FN>
  return %2 : tensor<2x4x3xf8E4M3FN>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x4xbf16>) -> (tensor<4x2x4xbf16>) {
  %0 = "tosa.const"() <{values = dense<[[0], [1], [0], [1]]> : tensor<4x1xi32>}> : () -> tensor<4x1xi32>
  %1 = "tosa.const"() <{values = dense<1.1526899025947317e36> : tensor<4x1x4xbf16>}> : () -> tensor<4x1x4xbf16>
  %2 = "tosa.scatter"(%arg0, %0, %1) : (tensor<4x2x4xbf16>, tensor<4x1xi32>, tensor<4x1x4xbf16>) -> tensor<4x2x4xbf16>
  return %2 : tensor<4x2x4xbf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x2xbf16>) -> (tensor<2x2x3xbf16>) {
  %0 = "tosa.const"() <{values = dense<[[[2.605286871738435e38, 2.605286871738435e38, 2.605286871738435e38], [2.605286871738435e38, 2.605286871738435e38, 2.605286871738435e38], [2.605286871738435e38, 2.605286871738435e38, 2.605286871738435e38]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]> : tensor<2x3x3xbf16>}> : () -> tensor<2x3x3xbf16>
  %1 = "tosa.const"() <{values = dense<0> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  %2 = tosa.gather %0, %1 : (tensor<2x3x3xbf16>, tensor<2x2xi32>) -> tensor<2x2x3xbf16>
  return %2 : tensor<2x2x3xbf16>
}

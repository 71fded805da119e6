// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1xbf16>) -> (tensor<2xi1>) {
  %0 = "tosa.const"() <{values = dense<[-506.0, 0x7FC0]> : tensor<2xbf16>}> : () -> tensor<2xbf16>
  %1 = "tosa.greater_equal"(%0, %arg0) : (tensor<2xbf16>, tensor<1xbf16>) -> tensor<2xi1>
  return %1 : tensor<2xi1>
}

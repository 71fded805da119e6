// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2xi32>) -> (tensor<2x2x3xf8E4M3FN>) {
  %0 = "tosa.const"() <{values = dense<[[[-176.0, 192.0, 256.0], [-128.0, 224.0, 224.0]], [[-416.0, 52.0, -352.0], [256.0, 160.0, 288.0]]]> : tensor<2x2x3xf8E4M3FN>}> : () -> tensor<2x2x3xf8E4M3FN>
  %1 = "tosa.gather"(%0, %arg0) : (tensor<2x2x3xf8E4M3FN>, tensor<2x2xi32>) -> tensor<2x2x3xf8E4M3FN>
  return %1 : tensor<2x2x3xf8E4M3FN>
}

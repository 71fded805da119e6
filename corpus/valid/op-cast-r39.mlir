// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x3x1xf32>) -> (tensor<3xi8>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<3xf32>}> : () -> tensor<3xf32>
  %1 = "tosa.cast"(%0) : (tensor<3xf32>) -> tensor<3xi8>
  return %1 : tensor<3xi8>
}

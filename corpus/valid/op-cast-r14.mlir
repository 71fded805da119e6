// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x2x4x2xi16>) -> (tensor<4xf32>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<4xi16>}> : () -> tensor<4xi16>
  %1 = "tosa.cast"(%0) : (tensor<4xi16>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

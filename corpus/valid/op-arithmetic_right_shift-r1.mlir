// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4xi16>) -> (tensor<4xi16>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<4xi16>}> : () -> tensor<4xi16>
  %1 = "tosa.arithmetic_right_shift"(%arg0, %0) <{round = false}> : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  return %1 : tensor<4xi16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xi16>) -> (tensor<3xi16>) {
  %0 = "tosa.const"() <{values = dense<[11549, 2461, 11695]> : tensor<3xi16>}> : () -> tensor<3xi16>
  %1 = "tosa.bitwise_xor"(%arg0, %0) : (tensor<3xi16>, tensor<3xi16>) -> tensor<3xi16>
  return %1 : tensor<3xi16>
}

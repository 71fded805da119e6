// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4xi16>) -> (tensor<4xi32>) {
  %0 = "tosa.const"() <{values = dense<[15792, 19979, 28657, 16069]> : tensor<4xi16>}> : () -> tensor<4xi16>
  %1 = "tosa.const"() <{values = dense<[4, 4, 2, 3]> : tensor<4xi8>}> : () -> tensor<4xi8>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %3 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{scale32 = false, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = true, input_unsigned = false, output_unsigned = false}> : (tensor<4xi16>, tensor<4xi16>, tensor<4xi8>, tensor<1xi16>, tensor<1xi32>) -> tensor<4xi32>
  return %4 : tensor<4xi32>
}

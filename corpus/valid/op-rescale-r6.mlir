// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1x2x4xi16>) -> (tensor<4x1x2x4xi8>) {
  %0 = "tosa.const"() <{values = dense<1000> : tensor<1xi32>}> : () -> tensor<1xi32>
  %1 = "tosa.const"() <{values = dense<9> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %3 = "tosa.const"() <{values = dense<113> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{scale32 = true, rounding_mode = #tosa.rounding_mode<DOUBLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = true}> : (tensor<4x1x2x4xi16>, tensor<1xi32>, tensor<1xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<4x1x2x4xi8>
  return %4 : tensor<4x1x2x4xi8>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x2x2x4xi48>) -> (tensor<4x4x2x2x4xi16>) {
  %0 = "tosa.const"() <{values = dense<[29165, 5966, 10933, 23950]> : tensor<4xi16>}> : () -> tensor<4xi16>
  %1 = "tosa.const"() <{values = dense<[10, 9, 11, 11]> : tensor<4xi8>}> : () -> tensor<4xi8>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi48>}> : () -> tensor<1xi48>
  %3 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{scale32 = false, rounding_mode = #tosa.rounding_mode<INEXACT_ROUND>, per_channel = true, input_unsigned = false, output_unsigned = false}> : (tensor<4x4x2x2x4xi48>, tensor<4xi16>, tensor<4xi8>, tensor<1xi48>, tensor<1xi16>) -> tensor<4x4x2x2x4xi16>
  return %4 : tensor<4x4x2x2x4xi16>
}

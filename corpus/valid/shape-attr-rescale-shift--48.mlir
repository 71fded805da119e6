// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x4xi16>) -> (tensor<2x3x4xi32>) {
  %0 = "tosa.const"() <{values = dense<9> : tensor<1xi32>}> : () -> tensor<1xi32>
  %1 = "tosa.const"() <{values = dense<61> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %3 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{scale32 = true, rounding_mode = #tosa.rounding_mode<INEXACT_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<2x3x4xi16>, tensor<1xi32>, tensor<1xi8>, tensor<1xi16>, tensor<1xi16>) -> tensor<2x3x4xi16>
  %5 = "tosa.const"() <{values = dense<0> : tensor<2x4x4xi16>}> : () -> tensor<2x4x4xi16>
  %6 = "tosa.matmul"(%4, %5, %3, %3) : (tensor<2x3x4xi16>, tensor<2x4x4xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<2x3x4xi48>
  %7 = "tosa.const"() <{values = dense<[20978, 25309, 14326, 23357]> : tensor<4xi16>}> : () -> tensor<4xi16>
  %8 = "tosa.const"() <{values = dense<[4, 4, 2, 2]> : tensor<4xi8>}> : () -> tensor<4xi8>
  %9 = "tosa.const"() <{values = dense<0> : tensor<1xi48>}> : () -> tensor<1xi48>
  %10 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %11 = "tosa.rescale"(%6, %7, %8, %9, %10) <{scale32 = false, rounding_mode = #tosa.rounding_mode<INEXACT_ROUND>, per_channel = true, input_unsigned = false, output_unsigned = false}> : (tensor<2x3x4xi48>, tensor<4xi16>, tensor<4xi8>, tensor<1xi48>, tensor<1xi32>) -> tensor<2x3x4xi32>
  return %11 : tensor<2x3x4xi32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<5x7xf16>, %arg1: tensor<1xi16>) -> (tensor<5x7xi8>, tensor<1xi16>) {
  %0 = "tosa.const"() <{values = dense<[[-8.25, 8.2578125, -6.5546875, -9.78125, -8.3203125, 5.75, 4.4921875], [-5.58203125, -1.3369140625, 7.8984375, 3.73828125, 6.47265625, -4.9140625, -0.60986328125], [7.2890625, -8.3125, 4.6640625, 5.8125, -8.6328125, 4.703125, -2.919921875], [-0.000774383544921875, 6.3671875, -8.296875, -3.8828125, -7.421875, 4.671875, 5.2265625], [2.7578125, 5.90234375, -9.046875, 5.78515625, -2.96484375, -6.96484375, 6.5625]]> : tensor<5x7xf16>}> : () -> tensor<5x7xf16>
  %1 = "tosa.maximum"(%arg0, %0) <{nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<5x7xf16>, tensor<5x7xf16>) -> tensor<5x7xf16>
  %2 = "tosa.cast"(%1) : (tensor<5x7xf16>) -> tensor<5x7xi8>
  %3 = "tosa.const"() <{values = dense<7> : tensor<1xi32>}> : () -> tensor<1xi32>
  %4 = "tosa.const"() <{values = dense<18> : tensor<1xi8>}> : () -> tensor<1xi8>
  %5 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %6 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %7 = "tosa.rescale"(%arg1, %3, %4, %5, %6) <{scale32 = true, rounding_mode = #tosa.rounding_mode<DOUBLE_ROUND>, per_channel = true, input_unsigned = false, output_unsigned = false}> : (tensor<1xi16>, tensor<1xi32>, tensor<1xi8>, tensor<1xi16>, tensor<1xi32>) -> tensor<1xi32>
  %8 = "tosa.const"() <{values = dense<19119> : tensor<1xi16>}> : () -> tensor<1xi16>
  %9 = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %10 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %11 = "tosa.rescale"(%7, %8, %9, %10, %5) <{scale32 = false, rounding_mode = #tosa.rounding_mode<INEXACT_ROUND>, per_channel = true, input_unsigned = false, output_unsigned = false}> : (tensor<1xi32>, tensor<1xi16>, tensor<1xi8>, tensor<1xi32>, tensor<1xi16>) -> tensor<1xi16>
  return %2, %11 : tensor<5x7xi8>, tensor<1xi16>
}

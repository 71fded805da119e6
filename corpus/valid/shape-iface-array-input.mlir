// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x1x1x4xi16>) -> (tensor<1x6x1x2x4xi32>, tensor<1x6x1x2x4xi32>) {
  %0 = "tosa.const"() <{values = dense<[[[[[0, 0, 0, 0]]]], [[[[16, 4, -12, 12]]]], [[[[5, 15, -15, 8]]]], [[[[0, 0, 0, 0]]]]]> : tensor<4x1x1x1x4xi8>}> : () -> tensor<4x1x1x1x4xi8>
  %1 = "tosa.const"() <{values = dense<[-392785612219, -270039853466, -22297223126, -706217793301]> : tensor<4xi48>}> : () -> tensor<4xi48>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %3 = "tosa.const"() <{values = dense<4> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = "tosa.conv3d"(%arg0, %0, %1, %2, %3) <{pad = array<i64: 1, 2, 0, 0, 2, 0>, stride = array<i64: 1, 1, 2>, dilation = array<i64: 1, 1, 1>, acc_type = i48, local_bound = false}> : (tensor<1x3x1x1x4xi16>, tensor<4x1x1x1x4xi8>, tensor<4xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x6x1x2x4xi48>
  %5 = "tosa.const"() <{values = dense<17323> : tensor<1xi16>}> : () -> tensor<1xi16>
  %6 = "tosa.const"() <{values = dense<23> : tensor<1xi8>}> : () -> tensor<1xi8>
  %7 = "tosa.const"() <{values = dense<0> : tensor<1xi48>}> : () -> tensor<1xi48>
  %8 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %9 = "tosa.rescale"(%4, %5, %6, %7, %8) <{scale32 = false, rounding_mode = #tosa.rounding_mode<INEXACT_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<1x6x1x2x4xi48>, tensor<1xi16>, tensor<1xi8>, tensor<1xi48>, tensor<1xi32>) -> tensor<1x6x1x2x4xi32>
  %10 = "tosa.bitwise_xor"(%9, %9) : (tensor<1x6x1x2x4xi32>, tensor<1x6x1x2x4xi32>) -> tensor<1x6x1x2x4xi32>
  return %10, %9 : tensor<1x6x1x2x4xi32>, tensor<1x6x1x2x4xi32>
}

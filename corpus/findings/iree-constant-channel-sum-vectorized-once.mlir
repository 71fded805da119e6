// TOSA MLIR of graph entry point "main" (graph %16)
func.func @main(%arg0: tensor<1x1x3x4xi8>) -> (tensor<1x1x3x1xi32>) {
  %0 = "tosa.const"() <{values = dense<1> : tensor<1xi16>}> : () -> tensor<1xi16>
  %1 = "tosa.const"() <{values = dense<40> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.const"() <{values = dense<-11> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{scale32 = false, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<1x1x3x4xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x3x4xi8>
  %5 = "tosa.const"() <{values = dense<0> : tensor<1x1x1x4xi8>}> : () -> tensor<1x1x1x4xi8>
  %6 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %7 = "tosa.const"() <{values = dense<-79> : tensor<1xi8>}> : () -> tensor<1xi8>
  %8 = "tosa.conv2d"(%4, %5, %6, %2, %7) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i32, local_bound = false}> : (tensor<1x1x3x4xi8>, tensor<1x1x1x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x3x1xi32>
  return %8 : tensor<1x1x3x1xi32>
}

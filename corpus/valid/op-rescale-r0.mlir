// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x1x2xi8>) -> (tensor<3x2x1x2xi8>) {
  %0 = "tosa.const"() <{values = dense<[1684535, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %1 = "tosa.const"() <{values = dense<[23, 11]> : tensor<2xi8>}> : () -> tensor<2xi8>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.const"() <{values = dense<-100> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{scale32 = true, rounding_mode = #tosa.rounding_mode<INEXACT_ROUND>, per_channel = true, input_unsigned = true, output_unsigned = false}> : (tensor<3x2x1x2xi8>, tensor<2xi32>, tensor<2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3x2x1x2xi8>
  return %4 : tensor<3x2x1x2xi8>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xi8>) -> (tensor<2xi16>) {
  %0 = "tosa.const"() <{values = dense<[29126, 15084]> : tensor<2xi16>}> : () -> tensor<2xi16>
  %1 = "tosa.const"() <{values = dense<[10, 6]> : tensor<2xi8>}> : () -> tensor<2xi8>
  %2 = "tosa.const"() <{values = dense<74> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{scale32 = false, rounding_mode = #tosa.rounding_mode<INEXACT_ROUND>, per_channel = true, input_unsigned = true, output_unsigned = false}> : (tensor<2xi8>, tensor<2xi16>, tensor<2xi8>, tensor<1xi8>, tensor<1xi16>) -> tensor<2xi16>
  return %4 : tensor<2xi16>
}

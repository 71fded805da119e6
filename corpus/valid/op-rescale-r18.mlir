// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4xi48>) -> (tensor<4xi8>) {
  %0 = "tosa.const"() <{values = dense<13698> : tensor<1xi16>}> : () -> tensor<1xi16>
  %1 = "tosa.const"() <{values = dense<16> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi48>}> : () -> tensor<1xi48>
  %3 = "tosa.const"() <{values = dense<-112> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{scale32 = false, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi48>, tensor<1xi16>, tensor<1xi8>, tensor<1xi48>, tensor<1xi8>) -> tensor<4xi8>
  return %4 : tensor<4xi8>
}

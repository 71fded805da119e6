// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x1x4x2xi8>) -> (tensor<1x3x1x4x2xi16>) {
  %0 = "tosa.const"() <{values = dense<63041599> : tensor<1xi32>}> : () -> tensor<1xi32>
  %1 = "tosa.const"() <{values = dense<18> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.const"() <{values = dense<-24> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.const"() <{values = dense<-32768> : tensor<1xi16>}> : () -> tensor<1xi16>
  %4 = "tosa.rescale"(%arg0, %0, %1, %2, %3) <{scale32 = true, rounding_mode = #tosa.rounding_mode<DOUBLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = true}> : (tensor<1x3x1x4x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi16>) -> tensor<1x3x1x4x2xi16>
  return %4 : tensor<1x3x1x4x2xi16>
}

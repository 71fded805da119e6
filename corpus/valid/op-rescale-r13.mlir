// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x1x3x2xi32>) -> (tensor<4xi8>) {
  %0 = "tosa.const"() <{values = dense<[9822, 29288, 3614, -5628]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %1 = "tosa.const"() <{values = dense<7570> : tensor<1xi16>}> : () -> tensor<1xi16>
  %2 = "tosa.const"() <{values = dense<23> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %4 = "tosa.const"() <{values = dense<-36> : tensor<1xi8>}> : () -> tensor<1xi8>
  %5 = "tosa.rescale"(%0, %1, %2, %3, %4) <{scale32 = false, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi16>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  return %5 : tensor<4xi8>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xi16>, %arg1: tensor<1x1xi16>) -> (tensor<1xi32>, tensor<1x1xf16>, tensor<1xi16>) {
  %0 = "tosa.const_shape"() <{values = dense<[1]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %1 = "tosa.slice"(%arg0, %0, %0) : (tensor<3xi16>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<1xi16>
  %2 = "tosa.const"() <{values = dense<29473> : tensor<1xi16>}> : () -> tensor<1xi16>
  %3 = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %5 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %6 = "tosa.rescale"(%1, %2, %3, %4, %5) <{scale32 = false, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = true, input_unsigned = false, output_unsigned = false}> : (tensor<1xi16>, tensor<1xi16>, tensor<1xi8>, tensor<1xi16>, tensor<1xi32>) -> tensor<1xi32>
  %7 = "tosa.cast"(%arg1) : (tensor<1x1xi16>) -> tensor<1x1xf16>
  return %6, %7, %1 : tensor<1xi32>, tensor<1x1xf16>, tensor<1xi16>
}

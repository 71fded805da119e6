// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4xi8>) -> (tensor<4x5xi8>, tensor<4x5xi8>) {
  %0 = "tosa.const_shape"() <{values = dense<[1, 1, 1, 0]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.const"() <{values = dense<-77> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.pad"(%arg0, %0, %1) : (tensor<2x4xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<4x5xi8>
  %3 = "tosa.const"() <{values = dense<[1677, 16948246, 477, 6302, 484504]> : tensor<5xi32>}> : () -> tensor<5xi32>
  %4 = "tosa.const"() <{values = dense<[11, 25, 10, 13, 18]> : tensor<5xi8>}> : () -> tensor<5xi8>
  %5 = "tosa.const"() <{values = dense<124> : tensor<1xi8>}> : () -> tensor<1xi8>
  %6 = "tosa.const"() <{values = dense<-9> : tensor<1xi8>}> : () -> tensor<1xi8>
  %7 = "tosa.rescale"(%2, %3, %4, %5, %6) <{scale32 = true, rounding_mode = #tosa.rounding_mode<DOUBLE_ROUND>, per_channel = true, input_unsigned = true, output_unsigned = false}> : (tensor<4x5xi8>, tensor<5xi32>, tensor<5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x5xi8>
  return %7, %7 : tensor<4x5xi8>, tensor<4x5xi8>
}

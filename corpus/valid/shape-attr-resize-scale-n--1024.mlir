// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x440x1x1xi8>) -> (tensor<1x440x1x1xi8>, tensor<1x440x1x1xi8>) {
  %0 = "tosa.const_shape"() <{values = dense<[1297, 10878, 1, 1]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.const_shape"() <{values = dense<[15178, 0]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %2 = "tosa.const_shape"() <{values = dense<[573, 0]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %3 = "tosa.resize"(%arg0, %0, %1, %2) <{mode = #tosa.resize_mode<BILINEAR>}> : (tensor<1x440x1x1xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x52x1x1xi32>
  %4 = "tosa.abs"(%3) : (tensor<1x52x1x1xi32>) -> tensor<1x52x1x1xi32>
  return %arg0, %arg0 : tensor<1x440x1x1xi8>, tensor<1x440x1x1xi8>
}

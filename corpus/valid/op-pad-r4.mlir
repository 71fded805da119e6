// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x1x1x2xf8E4M3FN>) -> (tensor<1x4x3x3x5xf8E4M3FN>) {
  %0 = "tosa.const_shape"() <{values = dense<[0, 0, 0, 0, 0, 2, 2, 0, 1, 2]> : tensor<10xindex>}> : () -> !tosa.shape<10>
  %1 = "tosa.const"() <{values = dense<3.75> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %2 = "tosa.pad"(%arg0, %0, %1) : (tensor<1x4x1x1x2xf8E4M3FN>, !tosa.shape<10>, tensor<1xf8E4M3FN>) -> tensor<1x4x3x3x5xf8E4M3FN>
  return %2 : tensor<1x4x3x3x5xf8E4M3FN>
}

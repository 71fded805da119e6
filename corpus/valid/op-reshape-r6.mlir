// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x1x4xf16>) -> (tensor<3xf16>) {
  %0 = "tosa.const"() <{values = dense<[-3.431640625, 4.11328125, 6.58203125]> : tensor<3xf16>}> : () -> tensor<3xf16>
  %1 = "tosa.const_shape"() <{values = dense<[3]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %2 = "tosa.reshape"(%0, %1) : (tensor<3xf16>, !tosa.shape<1>) -> tensor<3xf16>
  return %2 : tensor<3xf16>
}

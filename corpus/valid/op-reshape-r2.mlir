// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1xi16>) -> (tensor<4x1xi16>) {
  %0 = "tosa.const_shape"() <{values = dense<[4, 1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %1 = "tosa.reshape"(%arg0, %0) : (tensor<4x1xi16>, !tosa.shape<2>) -> tensor<4x1xi16>
  return %1 : tensor<4x1xi16>
}

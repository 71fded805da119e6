// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x1xi16>) -> (tensor<6x6x1xi16>) {
  %0 = "tosa.const_shape"() <{values = dense<[2, 3, 1]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %1 = "tosa.tile"(%arg0, %0) : (tensor<3x2x1xi16>, !tosa.shape<3>) -> tensor<6x6x1xi16>
  return %1 : tensor<6x6x1xi16>
}

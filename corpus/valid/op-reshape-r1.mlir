// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1xi8>) -> (tensor<1x1x1x1xi8>) {
  %0 = "tosa.const_shape"() <{values = dense<[1, 1, 1, 1]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.reshape"(%arg0, %0) : (tensor<1xi8>, !tosa.shape<4>) -> tensor<1x1x1x1xi8>
  return %1 : tensor<1x1x1x1xi8>
}

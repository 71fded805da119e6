// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x2x1x1xi32>) -> (tensor<2x2x2x1x1xi32>) {
  %0 = "tosa.const_shape"() <{values = dense<[0, 0, 0, 0, 0]> : tensor<5xindex>}> : () -> !tosa.shape<5>
  %1 = "tosa.const_shape"() <{values = dense<[2, 2, 2, 1, 1]> : tensor<5xindex>}> : () -> !tosa.shape<5>
  %2 = "tosa.slice"(%arg0, %0, %1) : (tensor<2x2x2x1x1xi32>, !tosa.shape<5>, !tosa.shape<5>) -> tensor<2x2x2x1x1xi32>
  return %2 : tensor<2x2x2x1x1xi32>
}

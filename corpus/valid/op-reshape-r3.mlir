// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x2xi32>) -> (tensor<4x1x2x1x1xi32>) {
  %0 = "tosa.const_shape"() <{values = dense<[4, 1, 2, 1, 1]> : tensor<5xindex>}> : () -> !tosa.shape<5>
  %1 = "tosa.reshape"(%arg0, %0) : (tensor<1x4x2xi32>, !tosa.shape<5>) -> tensor<4x1x2x1x1xi32>
  return %1 : tensor<4x1x2x1x1xi32>
}

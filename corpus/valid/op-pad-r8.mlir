// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4xf32>) -> (tensor<7x4xf32>) {
  %0 = "tosa.const_shape"() <{values = dense<[2, 2, 0, 0]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %1 = "tosa.const"() <{values = dense<-898.9561767578125> : tensor<1xf32>}> : () -> tensor<1xf32>
  %2 = "tosa.pad"(%arg0, %0, %1) : (tensor<3x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<7x4xf32>
  return %2 : tensor<7x4xf32>
}

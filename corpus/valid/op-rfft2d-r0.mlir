// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x4xf32>) -> (tensor<1x4x3xf32>, tensor<1x4x3xf32>) {
  %0:2 = "tosa.rfft2d"(%arg0) <{local_bound = false}> : (tensor<1x4x4xf32>) -> (tensor<1x4x3xf32>, tensor<1x4x3xf32>)
  return %0#0, %0#1 : tensor<1x4x3xf32>, tensor<1x4x3xf32>
}

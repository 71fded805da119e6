// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x4xf32>, %arg1: tensor<4x3x1x2x2xf32>) -> (tensor<2x1x3xf32>, tensor<4x3x1x2x2xf32>) {
  %0:2 = "tosa.rfft2d"(%arg0) <{local_bound = false}> : (tensor<2x1x4xf32>) -> (tensor<2x1x3xf32>, tensor<2x1x3xf32>)
  %1 = "tosa.log"(%arg1) : (tensor<4x3x1x2x2xf32>) -> tensor<4x3x1x2x2xf32>
  return %0#1, %1 : tensor<2x1x3xf32>, tensor<4x3x1x2x2xf32>
}

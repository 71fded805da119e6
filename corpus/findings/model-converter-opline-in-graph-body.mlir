// TOSA MLIR of graph entry point "main" (graph %15)
func.func @main(%arg0: tensor<1x4x4xf32>, %arg1: tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>) {
  %0:2 = "tosa.fft2d"(%arg0, %arg1) <{inverse = false, local_bound = false}> : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>)
  return %0#0, %0#1 : tensor<1x4x4xf32>, tensor<1x4x4xf32>
}

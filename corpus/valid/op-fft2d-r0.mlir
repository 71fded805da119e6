// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x1xf32>) -> (tensor<1x2x1xf32>, tensor<1x2x1xf32>) {
  %0:2 = "tosa.fft2d"(%arg0, %arg0) <{inverse = false, local_bound = false}> : (tensor<1x2x1xf32>, tensor<1x2x1xf32>) -> (tensor<1x2x1xf32>, tensor<1x2x1xf32>)
  return %0#0, %0#1 : tensor<1x2x1xf32>, tensor<1x2x1xf32>
}

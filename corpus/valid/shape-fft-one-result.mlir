// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x2x1x2x4xf32>) -> (tensor<1x2x1xf32>) {
  %0 = "tosa.const"() <{values = dense<1.7292454106567955e37> : tensor<1x2x1xf32>}> : () -> tensor<1x2x1xf32>
  %1:2 = "tosa.fft2d"(%0, %0) <{inverse = true, local_bound = false}> : (tensor<1x2x1xf32>, tensor<1x2x1xf32>) -> (tensor<1x2x1xf32>, tensor<1x2x1xf32>)
  %2 = "tosa.floor"(%1#0) : (tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  %3 = "tosa.reduce_max"(%2) <{axis = 2 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  return %3 : tensor<1x2x1xf32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x4x4x3xf32>) -> (tensor<1x3x4x1x1xf32>) {
  %0 = "tosa.const"() <{values = dense<-0.22003017365932465> : tensor<1x2x1x3x3xf32>}> : () -> tensor<1x2x1x3x3xf32>
  %1 = "tosa.const"() <{values = dense<-0.908516526222229> : tensor<1xf32>}> : () -> tensor<1xf32>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %4 = "tosa.conv3d"(%arg0, %0, %1, %2, %3) <{pad = array<i64: 0, 2, 0, 0, 0, 1>, stride = array<i64: 1, 1, 3>, dilation = array<i64: 1, 1, 2>, acc_type = f32, local_bound = false}> : (tensor<1x2x4x4x3xf32>, tensor<1x2x1x3x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x4x1x1xf32>
  return %4 : tensor<1x3x4x1x1xf32>
}

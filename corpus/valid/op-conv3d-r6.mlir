// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x1x4x4xbf16>, %arg1: tensor<2x2x3x2x4xbf16>) -> (tensor<1x2x1x3x2xbf16>) {
  %0 = "tosa.const"() <{values = dense<-9.5> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %3 = "tosa.conv3d"(%arg0, %arg1, %0, %1, %2) <{pad = array<i64: 0, 1, 4, 0, 2, 0>, stride = array<i64: 2, 1, 2>, dilation = array<i64: 1, 2, 1>, acc_type = f32, local_bound = true}> : (tensor<1x3x1x4x4xbf16>, tensor<2x2x3x2x4xbf16>, tensor<1xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x2x1x3x2xbf16>
  return %3 : tensor<1x2x1x3x2xbf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x1x2x3xbf16>, %arg1: tensor<4x1x1x3xbf16>) -> (tensor<1x3x2x4xbf16>) {
  %0 = "tosa.const"() <{values = dense<-920.0> : tensor<4xbf16>}> : () -> tensor<4xbf16>
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %3 = "tosa.conv2d"(%arg0, %arg1, %0, %1, %2) <{pad = array<i64: 2, 2, 0, 1>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>, acc_type = f32, local_bound = true}> : (tensor<1x1x2x3xbf16>, tensor<4x1x1x3xbf16>, tensor<4xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x3x2x4xbf16>
  return %3 : tensor<1x3x2x4xbf16>
}

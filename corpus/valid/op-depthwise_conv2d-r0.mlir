// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4x1x2xi8>, %arg1: tensor<1xi32>) -> (tensor<1x2x1x6xi32>) {
  %0 = "tosa.const"() <{values = dense<[[[[-30, 15, -115], [-58, -123, 33]], [[-84, -27, -93], [3, -76, 126]], [[-73, -43, 93], [-105, 6, 22]]], [[[-9, 105, -50], [80, -62, -64]], [[10, 90, -74], [11, -75, -83]], [[-68, 34, 29], [56, -42, -33]]]]> : tensor<2x3x2x3xi8>}> : () -> tensor<2x3x2x3xi8>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.depthwise_conv2d"(%arg0, %0, %arg1, %1, %1) <{pad = array<i64: 0, 2, 2, 0>, stride = array<i64: 3, 1>, dilation = array<i64: 2, 1>, acc_type = i32, local_bound = false}> : (tensor<1x4x1x2xi8>, tensor<2x3x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x1x6xi32>
  return %2 : tensor<1x2x1x6xi32>
}

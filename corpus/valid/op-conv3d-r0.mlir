// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x3x3x3x1xi8>) -> (tensor<2x5x2x2x3xi32>) {
  %0 = "tosa.const"() <{values = dense<[[[[[66], [-41]]]], [[[[60], [-111]]]], [[[[101], [75]]]]]> : tensor<3x1x1x2x1xi8>}> : () -> tensor<3x1x1x2x1xi8>
  %1 = "tosa.const"() <{values = dense<[-15509, -24245, 31400]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.const"() <{values = dense<22> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = "tosa.conv3d"(%arg0, %0, %1, %2, %3) <{pad = array<i64: 2, 0, 1, 0, 2, 0>, stride = array<i64: 1, 3, 2>, dilation = array<i64: 1, 1, 2>, acc_type = i32, local_bound = false}> : (tensor<2x3x3x3x1xi8>, tensor<3x1x1x2x1xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x5x2x2x3xi32>
  return %4 : tensor<2x5x2x2x3xi32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x3x4xi16>) -> (tensor<1x2x3x2xi48>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<1x4x3x2xi16>}> : () -> tensor<1x4x3x2xi16>
  %1 = "tosa.const"() <{values = dense<[[[[95, -126], [-18, 99], [62, 25]], [[71, -50], [-64, 66], [115, 2]], [[-61, -88], [121, -40], [20, 118]]], [[[-67, -116], [120, 20], [66, -31]], [[-24, 113], [96, -85], [74, 42]], [[-70, -105], [-63, -7], [-19, -87]]]]> : tensor<2x3x3x2xi8>}> : () -> tensor<2x3x3x2xi8>
  %2 = "tosa.const"() <{values = dense<[379228871644, 1094079387142]> : tensor<2xi48>}> : () -> tensor<2xi48>
  %3 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %4 = "tosa.const"() <{values = dense<-61> : tensor<1xi8>}> : () -> tensor<1xi8>
  %5 = "tosa.conv2d"(%0, %1, %2, %3, %4) <{pad = array<i64: 0, 0, 0, 2>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i48, local_bound = false}> : (tensor<1x4x3x2xi16>, tensor<2x3x3x2xi8>, tensor<2xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x2x3x2xi48>
  return %5 : tensor<1x2x3x2xi48>
}

// TOSA MLIR of graph entry point "main" (graph %17)
func.func @main(%arg0: tensor<1x1x1x2xi16>) -> (tensor<1x1x1x1xi48>) {
  %0 = "tosa.const"() <{values = dense<[[[[7, 3]]]]> : tensor<1x1x1x2xi8>}> : () -> tensor<1x1x1x2xi8>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi48>}> : () -> tensor<1xi48>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %3 = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = "tosa.conv2d"(%arg0, %0, %1, %2, %3) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i48, local_bound = false}> : (tensor<1x1x1x2xi16>, tensor<1x1x1x2xi8>, tensor<1xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x1x1x1xi48>
  return %4 : tensor<1x1x1x1xi48>
}

// TOSA MLIR of graph entry point "main" (graph %21)
func.func @main(%arg0: tensor<1x1x1x2xi16>, %arg1: tensor<1x1x1x2xi8>) -> (tensor<1x1x1x1xi48>) {
  %0 = "tosa.const"() <{values = dense<-3> : tensor<1xi48>}> : () -> tensor<1xi48>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.conv2d"(%arg0, %arg1, %0, %1, %2) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i48, local_bound = false}> : (tensor<1x1x1x2xi16>, tensor<1x1x1x2xi8>, tensor<1xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x1x1x1xi48>
  return %3 : tensor<1x1x1x1xi48>
}

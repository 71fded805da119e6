// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x2x2x3xi16>, %arg1: tensor<3xi48>) -> (tensor<2x2x1x1x3xi48>) {
  %0 = "tosa.const"() <{values = dense<-9> : tensor<3x2x2x2x3xi8>}> : () -> tensor<3x2x2x2x3xi8>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %2 = "tosa.const"() <{values = dense<4> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.conv3d"(%arg0, %0, %arg1, %1, %2) <{pad = array<i64: 2, 1, 0, 0, 0, 1>, stride = array<i64: 2, 1, 2>, dilation = array<i64: 1, 1, 2>, acc_type = i48, local_bound = false}> : (tensor<2x1x2x2x3xi16>, tensor<3x2x2x2x3xi8>, tensor<3xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<2x2x1x1x3xi48>
  return %3 : tensor<2x2x1x1x3xi48>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x1x3x2xi8>) -> (tensor<1x6x2x3xi48>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<1x4x3x2xi16>}> : () -> tensor<1x4x3x2xi16>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi48>}> : () -> tensor<1xi48>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %3 = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = tosa.conv2d %0, %arg0, %1, %2, %3 {pad = array<i64: 0, 2, 2, 0>, stride = array<i64: 1, 2>, dilation = array<i64: 1, 1>, acc_type = i48, local_bound = false} : (tensor<1x4x3x2xi16>, tensor<3x1x3x2xi8>, tensor<1xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x6x2x3xi48>
  return %4 : tensor<1x6x2x3xi48>
}

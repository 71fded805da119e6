// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x3x3xi16>) -> (tensor<2x4x9x3xi48>) {
  %0 = "tosa.const"() <{values = dense<-115> : tensor<3x1x2x3xi8>}> : () -> tensor<3x1x2x3xi8>
  %1 = "tosa.const"() <{values = dense<[-1080883446563, -542712588182, -690942456175]> : tensor<3xi48>}> : () -> tensor<3xi48>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %3 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = "tosa.transpose_conv2d"(%arg0, %0, %1, %2, %3) <{out_pad = array<i64: 1, 0, 0, 1>, stride = array<i64: 2, 3>, acc_type = i48, local_bound = false}> : (tensor<2x2x3x3xi16>, tensor<3x1x2x3xi8>, tensor<3xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<2x4x9x3xi48>
  return %4 : tensor<2x4x9x3xi48>
}

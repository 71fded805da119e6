// TOSA MLIR of graph entry point "main" (graph %28)
func.func @main(%arg0: tensor<1x2x1x1xi16>, %arg1: tensor<1x1x1x1xi8>, %arg2: tensor<1xi48>) -> (tensor<1x3x1x1xi48>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.transpose_conv2d"(%arg0, %arg1, %arg2, %0, %1) <{out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 1>, acc_type = i48, local_bound = false}> : (tensor<1x2x1x1xi16>, tensor<1x1x1x1xi8>, tensor<1xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x3x1x1xi48>
  return %2 : tensor<1x3x1x1xi48>
}

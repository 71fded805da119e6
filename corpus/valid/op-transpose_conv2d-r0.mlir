// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x2x2xi8>, %arg1: tensor<2xi32>) -> (tensor<3x8x4x2xi32>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<2x3x2x2xi8>}> : () -> tensor<2x3x2x2xi8>
  %1 = "tosa.const"() <{values = dense<84> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.transpose_conv2d"(%arg0, %0, %arg1, %1, %2) <{out_pad = array<i64: 0, 2, 0, 1>, stride = array<i64: 3, 1>, acc_type = i32, local_bound = true}> : (tensor<3x2x2x2xi8>, tensor<2x3x2x2xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<3x8x4x2xi32>
  return %3 : tensor<3x8x4x2xi32>
}

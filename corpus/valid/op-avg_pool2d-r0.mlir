// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x4x3xi8>) -> (tensor<4x2x4x1xi8>) {
  %0 = "tosa.const"() <{values = dense<[[[[3], [-5], [2], [14]], [[-1], [10], [-5], [13]]], [[[15], [15], [13], [4]], [[-10], [16], [10], [10]]], [[[6], [-16], [9], [7]], [[-14], [-5], [10], [-2]]], [[[-12], [14], [6], [6]], [[-15], [7], [16], [-2]]]]> : tensor<4x2x4x1xi8>}> : () -> tensor<4x2x4x1xi8>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.avg_pool2d"(%0, %1, %1) <{kernel = array<i64: 3, 4>, stride = array<i64: 1, 1>, pad = array<i64: 1, 1, 2, 1>, acc_type = i32}> : (tensor<4x2x4x1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4x2x4x1xi8>
  return %2 : tensor<4x2x4x1xi8>
}

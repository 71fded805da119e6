// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x4x2xi8>) -> (tensor<1x2x1x1xi32>) {
  %0 = "tosa.const"() <{values = dense<[[[[7, -79], [107, -114], [21, -40]], [[120, -1], [102, 72], [-85, -7]], [[-8, 73], [-51, -81], [-120, -104]]]]> : tensor<1x3x3x2xi8>}> : () -> tensor<1x3x3x2xi8>
  %1 = "tosa.const"() <{values = dense<-32588> : tensor<1xi32>}> : () -> tensor<1xi32>
  %2 = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %3 = "tosa.const"() <{values = dense<124> : tensor<1xi8>}> : () -> tensor<1xi8>
  %4 = "tosa.conv2d"(%arg0, %0, %1, %2, %3) <{pad = array<i64: 1, 2, 1, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 2>, acc_type = i32, local_bound = false}> : (tensor<1x2x4x2xi8>, tensor<1x3x3x2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x1x1xi32>
  return %4 : tensor<1x2x1x1xi32>
}

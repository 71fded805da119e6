// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x1x1xi16>) -> (tensor<2x1x1x1xi16>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %1 = "tosa.avg_pool2d"(%arg0, %0, %0) <{kernel = array<i64: 2, 2>, stride = array<i64: 3, 2>, pad = array<i64: 0, 0, 1, 0>, acc_type = i32}> : (tensor<2x2x1x1xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<2x1x1x1xi16>
  return %1 : tensor<2x1x1x1xi16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x3xi32>) -> (tensor<3x1x3xi32>) {
  %0 = "tosa.reduce_sum"(%arg0) <{axis = 1 : i32}> : (tensor<3x3x3xi32>) -> tensor<3x1x3xi32>
  return %0 : tensor<3x1x3xi32>
}

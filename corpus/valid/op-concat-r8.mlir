// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1xf32>, %arg1: tensor<4x1xf32>) -> (tensor<8x1xf32>) {
  %0 = "tosa.concat"(%arg0, %arg0, %arg1) <{axis = 0 : i32}> : (tensor<2x1xf32>, tensor<2x1xf32>, tensor<4x1xf32>) -> tensor<8x1xf32>
  return %0 : tensor<8x1xf32>
}

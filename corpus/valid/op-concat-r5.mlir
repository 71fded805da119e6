// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x2x3xf8E5M2>, %arg1: tensor<4x3x2x2xf8E5M2>, %arg2: tensor<4x3x2x1xf8E5M2>) -> (tensor<4x3x2x9xf8E5M2>) {
  %0 = "tosa.concat"(%arg0, %arg1, %arg0, %arg2) <{axis = 3 : i32}> : (tensor<4x3x2x3xf8E5M2>, tensor<4x3x2x2xf8E5M2>, tensor<4x3x2x3xf8E5M2>, tensor<4x3x2x1xf8E5M2>) -> tensor<4x3x2x9xf8E5M2>
  return %0 : tensor<4x3x2x9xf8E5M2>
}

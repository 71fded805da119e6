// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x1xf8E4M3FN>, %arg1: tensor<3x2x1xf8E4M3FN>) -> (tensor<3x8x1xf8E4M3FN>) {
  %0 = "tosa.concat"(%arg0, %arg0, %arg1, %arg1) <{axis = 1 : i32}> : (tensor<3x2x1xf8E4M3FN>, tensor<3x2x1xf8E4M3FN>, tensor<3x2x1xf8E4M3FN>, tensor<3x2x1xf8E4M3FN>) -> tensor<3x8x1xf8E4M3FN>
  return %0 : tensor<3x8x1xf8E4M3FN>
}

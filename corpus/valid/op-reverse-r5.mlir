// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x3x1xf8E5M2>) -> (tensor<3x4x3x1xf8E5M2>) {
  %0 = "tosa.reverse"(%arg0) <{axis = 3 : i32}> : (tensor<3x4x3x1xf8E5M2>) -> tensor<3x4x3x1xf8E5M2>
  return %0 : tensor<3x4x3x1xf8E5M2>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x1x1x2xf8E5M2>) -> (tensor<4x1x1x2xf32>) {
  %0 = "tosa.cast"(%arg0) : (tensor<4x1x1x2xf8E5M2>) -> tensor<4x1x1x2xf32>
  return %0 : tensor<4x1x1x2xf32>
}

// TOSA MLIR of graph entry point "main" (graph %19)
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf8E4M3FN>, tensor<4xf8E5M2>) {
  %0 = "tosa.cast"(%arg0) : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  %1 = "tosa.cast"(%arg0) : (tensor<4xf32>) -> tensor<4xf8E5M2>
  return %0, %1 : tensor<4xf8E4M3FN>, tensor<4xf8E5M2>
}

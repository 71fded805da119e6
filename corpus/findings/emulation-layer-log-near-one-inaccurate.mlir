// TOSA MLIR of graph entry point "main" (graph %12)
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>) {
  %0 = "tosa.log"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// TOSA MLIR of graph entry point "main" (graph %12)
func.func @main(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> (tensor<4xi32>) {
  %0 = "tosa.abs"(%arg1) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

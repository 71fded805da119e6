// TOSA MLIR of graph entry point "main" (graph %14)
func.func @main(%arg0: tensor<4xi32>) -> (tensor<4xi32>) {
  %0 = "tosa.abs"(%arg0) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

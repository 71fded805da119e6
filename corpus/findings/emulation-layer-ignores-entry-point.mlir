// TOSA MLIR of graph entry point "abs" (graph %17)
func.func @abs(%arg0: tensor<4xi32>) -> (tensor<4xi32>) {
  %0 = "tosa.abs"(%arg0) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

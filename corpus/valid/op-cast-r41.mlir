// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4xf32>) -> (tensor<4xi32>) {
  %0 = "tosa.cast"(%arg0) : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

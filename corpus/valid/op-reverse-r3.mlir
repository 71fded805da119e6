// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x3x4xi32>) -> (tensor<3x3x3x4xi32>) {
  %0 = "tosa.reverse"(%arg0) <{axis = 2 : i32}> : (tensor<3x3x3x4xi32>) -> tensor<3x3x3x4xi32>
  return %0 : tensor<3x3x3x4xi32>
}

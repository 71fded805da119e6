// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4xi32>) -> (tensor<4x4xi32>) {
  %0 = "tosa.concat"(%arg0) <{axis = 1 : i32}> : (tensor<4x4xi32>) -> tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}

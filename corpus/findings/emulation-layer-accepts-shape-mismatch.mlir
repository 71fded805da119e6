// TOSA MLIR of graph entry point "main" (graph %16)
func.func @main(%arg0: tensor<6xi32>, %arg1: tensor<6xi32>) -> (tensor<8xi32>) {
  %0 = "tosa.concat"(%arg0, %arg1) <{axis = 0 : i32}> : (tensor<6xi32>, tensor<6xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

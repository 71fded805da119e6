// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4x4x1xi1>) -> (tensor<2x4x4x2xi1>) {
  %0 = "tosa.concat"(%arg0, %arg0) <{axis = 3 : i32}> : (tensor<2x4x4x1xi1>, tensor<2x4x4x1xi1>) -> tensor<2x4x4x2xi1>
  return %0 : tensor<2x4x4x2xi1>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4xi1>) -> (tensor<1x4xi1>) {
  %0 = "tosa.reduce_any"(%arg0) <{axis = 0 : i32}> : (tensor<4x4xi1>) -> tensor<1x4xi1>
  return %0 : tensor<1x4xi1>
}

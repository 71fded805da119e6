// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xi1>) -> (tensor<1xi1>) {
  %0 = "tosa.reduce_all"(%arg0) <{axis = 0 : i32}> : (tensor<3xi1>) -> tensor<1xi1>
  return %0 : tensor<1xi1>
}

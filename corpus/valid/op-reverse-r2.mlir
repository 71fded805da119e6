// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2xi16>) -> (tensor<2x2xi16>) {
  %0 = "tosa.reverse"(%arg0) <{axis = 0 : i32}> : (tensor<2x2xi16>) -> tensor<2x2xi16>
  return %0 : tensor<2x2xi16>
}

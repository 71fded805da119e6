// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2xi8>) -> (tensor<2x2xi8>) {
  %0 = "tosa.bitwise_not"(%arg0) : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

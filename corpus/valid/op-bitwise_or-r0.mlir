// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1xi8>) -> (tensor<1xi8>) {
  %0 = "tosa.bitwise_or"(%arg0, %arg0) : (tensor<1xi8>, tensor<1xi8>) -> tensor<1xi8>
  return %0 : tensor<1xi8>
}

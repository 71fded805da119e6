// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x1x1xi16>) -> (tensor<3x1x1xi8>) {
  %0 = "tosa.cast"(%arg0) : (tensor<3x1x1xi16>) -> tensor<3x1x1xi8>
  return %0 : tensor<3x1x1xi8>
}

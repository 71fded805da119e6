// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x3x1xi8>) -> (tensor<3x3x3x1xi16>) {
  %0 = "tosa.cast"(%arg0) : (tensor<3x3x3x1xi8>) -> tensor<3x3x3x1xi16>
  return %0 : tensor<3x3x3x1xi16>
}

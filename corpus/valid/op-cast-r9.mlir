// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x4x3x2xi16>) -> (tensor<3x2x4x3x2xi1>) {
  %0 = "tosa.cast"(%arg0) : (tensor<3x2x4x3x2xi16>) -> tensor<3x2x4x3x2xi1>
  return %0 : tensor<3x2x4x3x2xi1>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x4x4xi8>) -> (tensor<3x4x4xi1>) {
  %0 = "tosa.cast"(%arg0) : (tensor<3x4x4xi8>) -> tensor<3x4x4xi1>
  return %0 : tensor<3x4x4xi1>
}

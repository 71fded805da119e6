// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x4xi1>) -> (tensor<4x2x4xi8>) {
  %0 = "tosa.cast"(%arg0) : (tensor<4x2x4xi1>) -> tensor<4x2x4xi8>
  return %0 : tensor<4x2x4xi8>
}

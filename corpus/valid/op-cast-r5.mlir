// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x1x2xi8>) -> (tensor<4x2x1x2xi32>) {
  %0 = "tosa.cast"(%arg0) : (tensor<4x2x1x2xi8>) -> tensor<4x2x1x2xi32>
  return %0 : tensor<4x2x1x2xi32>
}

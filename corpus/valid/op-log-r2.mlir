// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4x2xf32>) -> (tensor<2x4x2xf32>) {
  %0 = "tosa.log"(%arg0) : (tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  return %0 : tensor<2x4x2xf32>
}

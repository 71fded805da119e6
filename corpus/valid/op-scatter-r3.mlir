// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x4xf8E4M3FN>, %arg1: tensor<2x1xi32>, %arg2: tensor<2x1x4xf8E4M3FN>) -> (tensor<2x1x4xf8E4M3FN>) {
  %0 = "tosa.scatter"(%arg0, %arg1, %arg2) : (tensor<2x1x4xf8E4M3FN>, tensor<2x1xi32>, tensor<2x1x4xf8E4M3FN>) -> tensor<2x1x4xf8E4M3FN>
  return %0 : tensor<2x1x4xf8E4M3FN>
}

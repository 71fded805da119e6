// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3xi32>) -> (tensor<1x3xi32>) {
  %0 = "tosa.minimum"(%arg0, %arg0) <{nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<1x3xi32>, tensor<1x3xi32>) -> tensor<1x3xi32>
  return %0 : tensor<1x3xi32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1xi32>) -> (tensor<1xi32>) {
  %0 = "tosa.maximum"(%arg0, %arg0) <{nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  return %0 : tensor<1xi32>
}

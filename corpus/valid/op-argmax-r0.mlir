// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x4xi8>) -> (tensor<2x1x2x1xi32>) {
  %0 = "tosa.const"() <{values = dense<[[[[[-103], [-108]]]], [[[[-89], [19]]]]]> : tensor<2x1x1x2x1xi8>}> : () -> tensor<2x1x1x2x1xi8>
  %1 = "tosa.argmax"(%0) <{axis = 2 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<2x1x1x2x1xi8>) -> tensor<2x1x2x1xi32>
  return %1 : tensor<2x1x2x1xi32>
}

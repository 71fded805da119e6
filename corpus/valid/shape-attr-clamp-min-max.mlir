// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x1x3x4xi8>) -> (tensor<3x2x1x3x4xi8>, tensor<3x2x1x3x4xi8>) {
  %0 = "tosa.clamp"(%arg0) <{min_val = -45 : i8, max_val = -45 : i8, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<3x2x1x3x4xi8>) -> tensor<3x2x1x3x4xi8>
  return %0, %0 : tensor<3x2x1x3x4xi8>, tensor<3x2x1x3x4xi8>
}

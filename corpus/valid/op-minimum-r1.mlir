// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x4x1xf16>) -> (tensor<4x2x4x1xf16>) {
  %0 = "tosa.minimum"(%arg0, %arg0) <{nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<4x2x4x1xf16>, tensor<4x2x4x1xf16>) -> tensor<4x2x4x1xf16>
  return %0 : tensor<4x2x4x1xf16>
}

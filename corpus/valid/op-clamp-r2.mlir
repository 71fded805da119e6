// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xf16>) -> (tensor<3xf16>) {
  %0 = "tosa.clamp"(%arg0) <{min_val = -0.69482421875 : f16, max_val = 5.960464477539063e-8 : f16, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<3xf16>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

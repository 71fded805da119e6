// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xf8E5M2>) -> (tensor<1xf16>) {
  %0 = "tosa.transpose"(%arg0) <{perms = array<i32: 0>}> : (tensor<2xf8E5M2>) -> tensor<2xf8E5M2>
  %1 = "tosa.cast"(%0) : (tensor<2xf8E5M2>) -> tensor<2xf16>
  %2 = "tosa.reduce_max"(%1) <{axis = 0 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<2xf16>) -> tensor<1xf16>
  return %2 : tensor<1xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2x4x3x1xi8>) -> (tensor<1xi8>) {
  %0 = "tosa.const"() <{values = dense<[74, -100, -86, -54]> : tensor<4xi8>}> : () -> tensor<4xi8>
  %1 = "tosa.reduce_min"(%0) <{axis = 0 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<4xi8>) -> tensor<1xi8>
  return %1 : tensor<1xi8>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x3x4x1xi8>) -> (tensor<1x1x4xi8>) {
  %0 = "tosa.const"() <{values = dense<[[[-119, 40, -95, -24]], [[122, -92, -29, 50]], [[127, 47, -110, -35]], [[25, 92, -105, 98]]]> : tensor<4x1x4xi8>}> : () -> tensor<4x1x4xi8>
  %1 = "tosa.reduce_max"(%0) <{axis = 0 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<4x1x4xi8>) -> tensor<1x1x4xi8>
  return %1 : tensor<1x1x4xi8>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x2xi1>, %arg1: tensor<4x4x3xi32>, %arg2: tensor<4x4x3xi32>) -> (tensor<1x4x2xi1>, tensor<4x4x3xi32>) {
  %0 = "tosa.reduce_all"(%arg0) <{axis = 0 : i32}> : (tensor<4x4x2xi1>) -> tensor<1x4x2xi1>
  %1 = "tosa.const"() <{values = dense<37> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.mul"(%arg1, %arg1, %1) : (tensor<4x4x3xi32>, tensor<4x4x3xi32>, tensor<1xi8>) -> tensor<4x4x3xi32>
  %3 = "tosa.maximum"(%2, %arg2) <{nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4x4x3xi32>, tensor<4x4x3xi32>) -> tensor<4x4x3xi32>
  return %0, %3 : tensor<1x4x2xi1>, tensor<4x4x3xi32>
}

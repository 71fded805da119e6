// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x4x4xf32>) -> (tensor<1xi32>) {
  %0 = "tosa.const"() <{values = dense<1.5899164880640266e38> : tensor<4xf32>}> : () -> tensor<4xf32>
  %1 = "tosa.argmax"(%0) <{axis = 0 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<4xf32>) -> tensor<i32>
  %2 = "tosa.const_shape"() <{values = dense<[1]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %3 = "tosa.reshape"(%1, %2) : (tensor<i32>, !tosa.shape<1>) -> tensor<1xi32>
  return %3 : tensor<1xi32>
}

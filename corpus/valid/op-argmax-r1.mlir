// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xi16>) -> (tensor<1xi32>) {
  %0 = "tosa.argmax"(%arg0) <{axis = 0 : i32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<3xi16>) -> tensor<i32>
  %1 = "tosa.const_shape"() <{values = dense<[1]> : tensor<1xindex>}> : () -> !tosa.shape<1>
  %2 = "tosa.reshape"(%0, %1) : (tensor<i32>, !tosa.shape<1>) -> tensor<1xi32>
  return %2 : tensor<1xi32>
}

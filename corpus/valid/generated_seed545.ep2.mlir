// TOSA MLIR of graph entry point "graph2" (graph %77)
func.func @graph2(%arg0: tensor<7x4x3x7xf16>) -> (tensor<4x6x6xi32>, tensor<4x3x6x6xf16>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<4x3x6x6xf16>}> : () -> tensor<4x3x6x6xf16>
  %1 = "tosa.max_pool2d"(%0) <{kernel = array<i64: 1, 2>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 1>, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<4x3x6x6xf16>) -> tensor<4x3x6x6xf16>
  %2 = "tosa.argmax"(%1) <{axis = 1 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<4x3x6x6xf16>) -> tensor<4x6x6xi32>
  return %2, %0 : tensor<4x6x6xi32>, tensor<4x3x6x6xf16>
}

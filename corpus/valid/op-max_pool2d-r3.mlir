// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4xf8E5M2>) -> (tensor<2x1x2x4xf8E5M2>) {
  %0 = "tosa.const"() <{values = dense<-0.375> : tensor<2x2x4x4xf8E5M2>}> : () -> tensor<2x2x4x4xf8E5M2>
  %1 = "tosa.max_pool2d"(%0) <{kernel = array<i64: 3, 4>, stride = array<i64: 4, 3>, pad = array<i64: 1, 0, 0, 3>, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<2x2x4x4xf8E5M2>) -> tensor<2x1x2x4xf8E5M2>
  return %1 : tensor<2x1x2x4xf8E5M2>
}

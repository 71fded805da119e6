// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x2x2xf16>) -> (tensor<3x1x1x4xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[9.0625, 9.0625, 9.0625, 9.0625]], [[9.0625, 9.0625, 9.0625, 9.0625]], [[9.0625, 9.0625, 9.0625, 9.0625]]], [[[0.42138671875, 0.42138671875, 0.42138671875, 0.42138671875]], [[0.42138671875, 0.42138671875, 0.42138671875, 0.42138671875]], [[0.42138671875, 0.42138671875, 0.42138671875, 0.42138671875]]], [[[5.27734375, 5.27734375, 5.27734375, 5.27734375]], [[5.27734375, 5.27734375, 5.27734375, 5.27734375]], [[5.27734375, 5.27734375, 5.27734375, 5.27734375]]]]> : tensor<3x3x1x4xf16>}> : () -> tensor<3x3x1x4xf16>
  %1 = tosa.const_shape {values = dense<[2, 7, 14, 19]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %2 = tosa.const_shape {values = dense<[4, -10]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %3 = tosa.const_shape {values = dense<[0, -10]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %4 = tosa.resize %0, %1, %2, %3 {mode = BILINEAR} : (tensor<3x3x1x4xf16>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<3x1x1x4xf16>
  return %4 : tensor<3x1x1x4xf16>
}

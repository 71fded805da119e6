// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x1x4xf16>) -> (tensor<3x2x2x4xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[-0.034332275390625, 9.0625, -2.421875, 0.42138671875]], [[-1.099609375, 5.27734375, -8.7890625, 4.66796875]], [[1.291015625, 0.1148681640625, -4.6953125, -5.8984375]]], [[[-0.123779296875, -1.201171875, -2.544921875, -8.1796875]], [[1.3427734375, -8.703125, 7.30078125, -6.4765625]], [[2.279296875, 3.892578125, 8.71875, 2.7265625]]], [[[9.4765625, -4.921875, -1.0400390625, 1.5732421875]], [[-4.875, 4.30078125, 5.671875, 7.75390625]], [[1.583984375, -2.21484375, 0.60546875, -1.78515625]]]]> : tensor<3x3x1x4xf16>}> : () -> tensor<3x3x1x4xf16>
  %1 = "tosa.const_shape"() <{values = dense<[15, 25, 15, 14]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %2 = "tosa.const_shape"() <{values = dense<[14, -15]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %3 = "tosa.const_shape"() <{values = dense<[9, -1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %4 = "tosa.resize"(%0, %1, %2, %3) <{mode = #tosa.resize_mode<BILINEAR>}> : (tensor<3x3x1x4xf16>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<3x2x2x4xf16>
  return %4 : tensor<3x2x2x4xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x4x1xf32>, %arg1: tensor<2x2x2x2xbf16>) -> (tensor<2x4x1xf32>, tensor<2x4x1xf32>, tensor<3x4x4x5xbf16>, tensor<2x2x2x2xbf16>) {
  %0:2 = "tosa.rfft2d"(%arg0) <{local_bound = false}> : (tensor<2x4x1xf32>) -> (tensor<2x4x1xf32>, tensor<2x4x1xf32>)
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %2 = "tosa.avg_pool2d"(%arg1, %1, %1) <{kernel = array<i64: 4, 1>, stride = array<i64: 2, 1>, pad = array<i64: 0, 2, 0, 0>, acc_type = f32}> : (tensor<2x2x2x2xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x1x2x2xbf16>
  %3 = "tosa.const_shape"() <{values = dense<[1, 0, 1, 2, 1, 1, 1, 2]> : tensor<8xindex>}> : () -> !tosa.shape<8>
  %4 = "tosa.const"() <{values = dense<-2.326148992623603e37> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %5 = "tosa.pad"(%2, %3, %4) : (tensor<2x1x2x2xbf16>, !tosa.shape<8>, tensor<1xbf16>) -> tensor<3x4x4x5xbf16>
  return %0#0, %0#1, %5, %arg1 : tensor<2x4x1xf32>, tensor<2x4x1xf32>, tensor<3x4x4x5xbf16>, tensor<2x2x2x2xbf16>
}

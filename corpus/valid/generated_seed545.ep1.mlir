// TOSA MLIR of graph entry point "graph1" (graph %38)
func.func @graph1(%arg0: tensor<1x4xi1>) -> (tensor<1x1xi1>) {
  %0 = "tosa.const"() <{values = dense<[[-535.5, 207.125, -371.25, 359.25], [403.25, -471.0, 835.5, -394.0], [457.75, -343.5, -37.34375, 194.375], [-772.0, -207.25, 794.5, 859.0]]> : tensor<4x4xf16>}> : () -> tensor<4x4xf16>
  %1 = "tosa.reciprocal"(%0) : (tensor<4x4xf16>) -> tensor<4x4xf16>
  %2 = "tosa.equal"(%1, %0) : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xi1>
  %3 = "tosa.logical_xor"(%2, %arg0) : (tensor<4x4xi1>, tensor<1x4xi1>) -> tensor<4x4xi1>
  %4 = "tosa.const_shape"() <{values = dense<[0, 1, 2, 0]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %5 = "tosa.const"() <{values = dense<false> : tensor<1xi1>}> : () -> tensor<1xi1>
  %6 = "tosa.pad"(%3, %4, %5) : (tensor<4x4xi1>, !tosa.shape<4>, tensor<1xi1>) -> tensor<5x6xi1>
  %7 = "tosa.reduce_any"(%6) <{axis = 0 : i32}> : (tensor<5x6xi1>) -> tensor<1x6xi1>
  %8 = "tosa.const_shape"() <{values = dense<[0, 2]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %9 = "tosa.const_shape"() <{values = dense<[1, 1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %10 = "tosa.slice"(%7, %8, %9) : (tensor<1x6xi1>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1xi1>
  return %10 : tensor<1x1xi1>
}

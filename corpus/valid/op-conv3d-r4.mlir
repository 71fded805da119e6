// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x2x3x3x4xf16>) -> (tensor<3x2x3x3x2xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[[[-805.5, 685.0, -190.0, -884.5]], [[846.5, 579.0, 899.0, -786.5]]], [[[562.0, 189.75, 787.0, 933.5]], [[-992.5, -697.0, -900.0, 786.0]]]], [[[[857.0, 115.5, -435.25, -36.375]], [[-634.0, 589.0, 888.5, 209.375]]], [[[-721.5, -659.5, -953.0, 350.25]], [[-865.5, 937.0, -727.0, -176.375]]]]]> : tensor<2x2x2x1x4xf16>}> : () -> tensor<2x2x2x1x4xf16>
  %1 = "tosa.const"() <{values = dense<[-28240.0, 59776.0]> : tensor<2xf16>}> : () -> tensor<2xf16>
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %3 = "tosa.conv3d"(%arg0, %0, %1, %2, %2) <{pad = array<i64: 1, 1, 2, 0, 2, 0>, stride = array<i64: 1, 1, 2>, dilation = array<i64: 2, 2, 1>, acc_type = f16, local_bound = false}> : (tensor<3x2x3x3x4xf16>, tensor<2x2x2x1x4xf16>, tensor<2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x2x3x3x2xf16>
  return %3 : tensor<3x2x3x3x2xf16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x4x1x4xf8E4M3FN>) -> (tensor<3x12x1xf8E4M3FN>) {
  %0 = "tosa.const"() <{values = dense<[[[-10.0, -8.0, -10.0, -5.0], [-4.0, -4.5, -6.5, 5.0], [-6.0, -3.0, -9.0, 5.0]], [[9.0, -1.5, 9.0, 9.0], [7.5, 8.0, 9.0, -1.25], [-6.5, 7.0, -4.5, 9.0]], [[-5.5, -5.5, -7.5, -7.0], [-8.0, -9.0, -6.0, 7.0], [-7.5, -9.0, 2.75, 7.0]]]> : tensor<3x3x4xf8E4M3FN>}> : () -> tensor<3x3x4xf8E4M3FN>
  %1 = "tosa.const_shape"() <{values = dense<[3, 12, 1]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %2 = "tosa.reshape"(%0, %1) : (tensor<3x3x4xf8E4M3FN>, !tosa.shape<3>) -> tensor<3x12x1xf8E4M3FN>
  return %2 : tensor<3x12x1xf8E4M3FN>
}

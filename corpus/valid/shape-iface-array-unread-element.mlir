// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x1x1xi32>, %arg1: tensor<1x1x1xi32>, %arg2: tensor<1x2x4xf8E4M3FN>) -> (tensor<1x2x1xi32>, tensor<1x2x2xf16>) {
  %0 = "tosa.const"() <{values = dense<[[[-64], [-93]]]> : tensor<1x2x1xi32>}> : () -> tensor<1x2x1xi32>
  %1 = "tosa.arithmetic_right_shift"(%0, %arg1) <{round = true}> : (tensor<1x2x1xi32>, tensor<1x1x1xi32>) -> tensor<1x2x1xi32>
  %2 = "tosa.const"() <{values = dense<[[[4.5, 4.0], [-2.0, 2.75], [-4.0, 8.0], [3.0, -5.5]]]> : tensor<1x4x2xf8E4M3FN>}> : () -> tensor<1x4x2xf8E4M3FN>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  %4 = "tosa.matmul"(%arg2, %2, %3, %3) : (tensor<1x2x4xf8E4M3FN>, tensor<1x4x2xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<1x2x2xf16>
  return %1, %4 : tensor<1x2x1xi32>, tensor<1x2x2xf16>
}

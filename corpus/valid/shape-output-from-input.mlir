// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x2x2xf8E4M3FN>) -> (tensor<2x2x2xf8E4M3FN>, tensor<2x2x2xf8E4M3FN>) {
  %0 = "tosa.const"() <{values = dense<1> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  %1 = "tosa.gather"(%arg0, %0) : (tensor<2x2x2xf8E4M3FN>, tensor<2x2xi32>) -> tensor<2x2x2xf8E4M3FN>
  %2 = "tosa.reverse"(%1) <{axis = 0 : i32}> : (tensor<2x2x2xf8E4M3FN>) -> tensor<2x2x2xf8E4M3FN>
  return %2, %arg0 : tensor<2x2x2xf8E4M3FN>, tensor<2x2x2xf8E4M3FN>
}

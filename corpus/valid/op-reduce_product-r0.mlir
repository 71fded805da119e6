// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4xf16>) -> (tensor<1xf16>) {
  %0 = "tosa.const"() <{values = dense<[-5.81640625, -0.309814453125]> : tensor<2xf16>}> : () -> tensor<2xf16>
  %1 = "tosa.reduce_product"(%0) <{axis = 0 : i32}> : (tensor<2xf16>) -> tensor<1xf16>
  return %1 : tensor<1xf16>
}

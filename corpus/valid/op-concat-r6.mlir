// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2xf16>) -> (tensor<6xf16>) {
  %0 = "tosa.concat"(%arg0, %arg0, %arg0) <{axis = 0 : i32}> : (tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) -> tensor<6xf16>
  return %0 : tensor<6xf16>
}

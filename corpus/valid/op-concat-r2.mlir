// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x4xi16>) -> (tensor<4x3x4xi16>) {
  %0 = "tosa.concat"(%arg0) <{axis = 2 : i32}> : (tensor<4x3x4xi16>) -> tensor<4x3x4xi16>
  return %0 : tensor<4x3x4xi16>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x4x4xi16>, %arg1: tensor<4x2xi32>, %arg2: tensor<4x2x4xi16>) -> (tensor<4x4x4xi16>) {
  %0 = "tosa.scatter"(%arg0, %arg1, %arg2) : (tensor<4x4x4xi16>, tensor<4x2xi32>, tensor<4x2x4xi16>) -> tensor<4x4x4xi16>
  return %0 : tensor<4x4x4xi16>
}

// TOSA MLIR of graph entry point "main" (graph %24)
func.func @main(%arg0: tensor<1x2x2xf32>, %arg1: tensor<1x1xi32>, %arg2: tensor<1x1x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x1x2xf32>) {
  %0 = "tosa.abs"(%arg0) : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %1 = "tosa.scatter"(%0, %arg1, %arg2) : (tensor<1x2x2xf32>, tensor<1x1xi32>, tensor<1x1x2xf32>) -> tensor<1x2x2xf32>
  %2 = "tosa.abs"(%arg2) : (tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  return %1, %0, %2 : tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x1x2xf32>
}

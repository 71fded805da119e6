// TOSA MLIR of graph entry point "main" (graph %22)
func.func @main(%arg0: tensor<1x4x1xi32>, %arg1: tensor<1x2xi32>, %arg2: tensor<1x2x1xi32>) -> (tensor<1x4x1xi32>) {
  %0 = "tosa.add"(%arg0, %arg0) : (tensor<1x4x1xi32>, tensor<1x4x1xi32>) -> tensor<1x4x1xi32>
  %1 = "tosa.scatter"(%0, %arg1, %arg2) : (tensor<1x4x1xi32>, tensor<1x2xi32>, tensor<1x2x1xi32>) -> tensor<1x4x1xi32>
  %2 = "tosa.sub"(%1, %0) : (tensor<1x4x1xi32>, tensor<1x4x1xi32>) -> tensor<1x4x1xi32>
  return %2 : tensor<1x4x1xi32>
}

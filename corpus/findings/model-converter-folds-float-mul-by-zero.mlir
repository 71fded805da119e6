// TOSA MLIR of graph entry point "main" (graph %12)
func.func @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>) {
  %0 = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.mul"(%arg0, %0, %1) : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

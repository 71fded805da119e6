// TOSA MLIR of graph entry point "main" (graph %25)
func.func @main(%arg0: tensor<1x2x3xi8>, %arg1: tensor<1x3x2xi8>) -> (tensor<1x2x2xi32>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = "tosa.matmul"(%arg0, %arg1, %0, %0) : (tensor<1x2x3xi8>, tensor<1x3x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2xi32>
  return %1 : tensor<1x2x2xi32>
}

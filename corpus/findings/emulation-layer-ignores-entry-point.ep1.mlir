// TOSA MLIR of graph entry point "negate" (graph %21)
func.func @negate(%arg0: tensor<4xi32>) -> (tensor<4xi32>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %1 = "tosa.negate"(%arg0, %0, %0) : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

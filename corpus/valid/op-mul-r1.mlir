// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x2xi16>) -> (tensor<1x2xi32>) {
  %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = "tosa.mul"(%arg0, %arg0, %0) : (tensor<1x2xi16>, tensor<1x2xi16>, tensor<1xi8>) -> tensor<1x2xi32>
  return %1 : tensor<1x2xi32>
}

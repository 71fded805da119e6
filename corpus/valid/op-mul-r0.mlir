// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x1x2xi8>) -> (tensor<3x1x2xi32>) {
  %0 = "tosa.const"() <{values = dense<[[[96]], [[-84]], [[101]]]> : tensor<3x1x1xi8>}> : () -> tensor<3x1x1xi8>
  %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = "tosa.mul"(%arg0, %0, %1) : (tensor<3x1x2xi8>, tensor<3x1x1xi8>, tensor<1xi8>) -> tensor<3x1x2xi32>
  return %2 : tensor<3x1x2xi32>
}

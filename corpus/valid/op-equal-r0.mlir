// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1xi32>) -> (tensor<1xi1>) {
  %0 = "tosa.const"() <{values = dense<-73> : tensor<1xi32>}> : () -> tensor<1xi32>
  %1 = "tosa.equal"(%0, %0) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
  return %1 : tensor<1xi1>
}

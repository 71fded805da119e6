// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1xi16>) -> (tensor<1xi16>) {
  %0 = "tosa.const"() <{values = dense<-8506> : tensor<1xi16>}> : () -> tensor<1xi16>
  %1 = "tosa.logical_right_shift"(%0, %arg0) : (tensor<1xi16>, tensor<1xi16>) -> tensor<1xi16>
  return %1 : tensor<1xi16>
}

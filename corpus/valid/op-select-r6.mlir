// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xi1>) -> (tensor<3xf32>) {
  %0 = "tosa.const"() <{values = dense<[-0.66041100025177, 6.062509059906006, 0.7275846004486084]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %1 = "tosa.select"(%arg0, %0, %0) : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<6x8xi16>, %arg1: tensor<6x1xi16>, %arg2: tensor<3x6xi1>, %arg3: tensor<3x6xi1>) -> (tensor<6x8xi16>, tensor<3x6xi1>) {
  %0 = "tosa.logical_right_shift"(%arg0, %arg1) : (tensor<6x8xi16>, tensor<6x1xi16>) -> tensor<6x8xi16>
  %1 = "tosa.logical_and"(%arg2, %arg3) : (tensor<3x6xi1>, tensor<3x6xi1>) -> tensor<3x6xi1>
  return %0, %1 : tensor<6x8xi16>, tensor<3x6xi1>
}

// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4xi32>, %arg1: tensor<1x1x2x1x4xi8>) -> (tensor<4xi1>) {
  %0 = "tosa.bitwise_xor"(%arg0, %arg0) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = "tosa.const"() <{values = dense<[2442, -848, 31630, 1540]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %2 = "tosa.greater"(%0, %1) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %3 = "tosa.const"() <{values = dense<[[[[[false, true, true, false], [true, false, false, false]], [[false, false, false, true], [false, false, false, false]]]]]> : tensor<1x1x2x2x4xi1>}> : () -> tensor<1x1x2x2x4xi1>
  %4 = "tosa.select"(%3, %arg1, %arg1) : (tensor<1x1x2x2x4xi1>, tensor<1x1x2x1x4xi8>, tensor<1x1x2x1x4xi8>) -> tensor<1x1x2x2x4xi8>
  return %2 : tensor<4xi1>
}

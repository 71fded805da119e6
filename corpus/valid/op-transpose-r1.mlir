// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x3x2xi8>) -> (tensor<2x4x3xi8>) {
  %0 = "tosa.const"() <{values = dense<[[[-15, 2], [-43, -51], [113, 52], [-89, -122]], [[18, -94], [-13, 42], [123, 33], [-75, 70]], [[-36, 76], [106, 71], [-56, -43], [-60, -84]]]> : tensor<3x4x2xi8>}> : () -> tensor<3x4x2xi8>
  %1 = "tosa.transpose"(%0) <{perms = array<i32: 2, 1, 0>}> : (tensor<3x4x2xi8>) -> tensor<2x4x3xi8>
  return %1 : tensor<2x4x3xi8>
}

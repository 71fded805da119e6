// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x3x3x1xi16>) -> (tensor<4x4x4x2x2xf16>) {
  %0 = "tosa.const"() <{values = dense<18125> : tensor<4x4x4x2x2xi16>}> : () -> tensor<4x4x4x2x2xi16>
  %1 = "tosa.cast"(%0) : (tensor<4x4x4x2x2xi16>) -> tensor<4x4x4x2x2xf16>
  return %1 : tensor<4x4x4x2x2xf16>
}

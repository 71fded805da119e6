// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3x1x4xf8E5M2>) -> (tensor<4x2x3x2x5xf8E5M2>) {
  %0 = "tosa.const"() <{values = dense<"0x40C04748C8C2C1453BC54247474641C541C2BF46C847C7434741C52F2CC33EC8C6B3C0C844C448C546C1C73CC346494545C548ACC4443FC8C94547474548BF45C6404648C848BFC048C548C3C6C541C847C648C540BCBCC8494743483F45464545C447C441C446C5493E40C745BF4845C8C94847C3C8C9C8C5C847C742C2C9474846C4C445C5C8443DC4C4C2C73EC3C0"> : tensor<4x2x3x2x3xf8E5M2>}> : () -> tensor<4x2x3x2x3xf8E5M2>
  %1 = "tosa.const_shape"() <{values = dense<[0, 0, 0, 0, 0, 0, 0, 0, 1, 1]> : tensor<10xindex>}> : () -> !tosa.shape<10>
  %2 = "tosa.const"() <{values = dense<-896.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %3 = "tosa.pad"(%0, %1, %2) : (tensor<4x2x3x2x3xf8E5M2>, !tosa.shape<10>, tensor<1xf8E5M2>) -> tensor<4x2x3x2x5xf8E5M2>
  return %3 : tensor<4x2x3x2x5xf8E5M2>
}

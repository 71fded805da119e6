// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<2x1x3x4xf8E5M2>) -> (tensor<4x2x3x2x4xf8E5M2>) {
  %0 = "tosa.const"() <{values = dense<"0xC0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C048C8C2C1453BC54247474641C541C2BF46C847C7434741C52F2CC33EC8C6B3C0C844C448000000000000000000000000000000000000000000000000000000000000000000000000C1C73CC346494545C548ACC4443FC8C94547474548BF45C6404648C848BFC048C548C3C6"> : tensor<4x2x3x2x3xf8E5M2>}> : () -> tensor<4x2x3x2x3xf8E5M2>
  %1 = tosa.const_shape {values = dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 1]> : tensor<10xindex>} : () -> !tosa.shape<10>
  %2 = "tosa.const"() <{values = dense<-448.0> : tensor<1xf8E5M2>}> : () -> tensor<1xf8E5M2>
  %3 = tosa.pad %0, %1, %2 : (tensor<4x2x3x2x3xf8E5M2>, !tosa.shape<10>, tensor<1xf8E5M2>) -> tensor<4x2x3x2x4xf8E5M2>
  return %3 : tensor<4x2x3x2x4xf8E5M2>
}

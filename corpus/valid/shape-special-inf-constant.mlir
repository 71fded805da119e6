// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<4x3x1xf32>) -> (tensor<2x2x3x3xi32>, tensor<4x3x1xf32>) {
  %0 = "tosa.const"() <{values = dense<"0xBB3DDC40F0BC23C00080F7C08C4010C1807FB940743F807F80FFEB40D540FF40A1BF12410100DCC051407FFF5C409B40BEC003C1803F0041E5C080FF84407640F0C01D41BE4020C064C0E8C080FF0141010014C1D6C02B40DAC07F00BC3F0BC132C0643D4AC00180018048C032C0F6BF7F7F3840F6C02F40074155406BC00080AF407FFFA34092C0CE4080FFBDC00080"> : tensor<2x2x3x2x3xbf16>}> : () -> tensor<2x2x3x2x3xbf16>
  %1 = "tosa.argmax"(%0) <{axis = 3 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<2x2x3x2x3xbf16>) -> tensor<2x2x3x3xi32>
  %2 = "tosa.clamp"(%arg0) <{min_val = 2.915114641189575 : f32, max_val = 6.545747756958008 : f32, nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<4x3x1xf32>) -> tensor<4x3x1xf32>
  return %1, %2 : tensor<2x2x3x3xi32>, tensor<4x3x1xf32>
}

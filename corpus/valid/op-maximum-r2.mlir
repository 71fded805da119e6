// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<3xbf16>) -> (tensor<1x1x1xbf16>) {
  %0 = "tosa.const"() <{values = dense<-8.573520572812707e37> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16>
  %1 = "tosa.maximum"(%0, %0) <{nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<1x1x1xbf16>, tensor<1x1x1xbf16>) -> tensor<1x1x1xbf16>
  return %1 : tensor<1x1x1xbf16>
}

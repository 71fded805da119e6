// TOSA MLIR of graph entry point "main" (graph %12)
func.func @main(%arg0: tensor<4xbf16>) -> (tensor<4xbf16>) {
  %0 = "tosa.sin"(%arg0) : (tensor<4xbf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

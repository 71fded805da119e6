func.func @graph0(%arg0: tensor<32xbf16>) -> (tensor<32xbf16>) {
  %c = "tosa.const"() <{values = dense<[-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, -3.0, -2.0, -1.0, 0.0]> : tensor<32xbf16>}> : () -> tensor<32xbf16>
  %0 = "tosa.add"(%arg0, %c) : (tensor<32xbf16>, tensor<32xbf16>) -> tensor<32xbf16>
  return %0 : tensor<32xbf16>
}

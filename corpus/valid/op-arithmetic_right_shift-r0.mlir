// TOSA MLIR of graph entry point "graph0" (graph %2)
func.func @graph0(%arg0: tensor<1x1x1x1x1xi8>) -> (tensor<3x3x2x4x2xi8>) {
  %0 = "tosa.const"() <{values = dense<"0xDE5403EECBB083F41643FA011432B6833F3148B335BAF8340FEFA9F5B0501ADA8944A5D7939294061A6E173AF4C6E9980C5D34F76BB428501AA46C7465549FA4B9D6DD4AAD6D2F6B0BC5C556FB937C266AB1E0D28CA878CA32C0F5959F25AD70000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"> : tensor<3x3x2x4x2xi8>}> : () -> tensor<3x3x2x4x2xi8>
  %1 = "tosa.const"() <{values = dense<7> : tensor<3x3x2x1x1xi8>}> : () -> tensor<3x3x2x1x1xi8>
  %2 = tosa.arithmetic_right_shift %0, %1 {round = false} : (tensor<3x3x2x4x2xi8>, tensor<3x3x2x1x1xi8>) -> tensor<3x3x2x4x2xi8>
  return %2 : tensor<3x3x2x4x2xi8>
}

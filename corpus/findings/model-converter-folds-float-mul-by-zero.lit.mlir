// RUN: mlir-opt %s --canonicalize | FileCheck %s

// TOSA MUL on floating point is IEEE multiplication: inf * 0 and NaN * 0 are
// NaN (and -2 * 0 is -0). MulOp::fold replaces a floating-point MUL by a splat
// of zeros with the zeros, so for x = [inf, -inf, NaN, -2] the function
// returns [0, 0, 0, 0] instead of [NaN, NaN, NaN, -0].

// CHECK-LABEL: func.func @mul_by_float_zero
// CHECK-NOT: tosa.mul
// CHECK: %[[Z:.+]] = tosa.const values(dense<0.000000e+00> : tensor<4xf32>)
// CHECK: return %[[Z]]
func.func @mul_by_float_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zeros = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = "tosa.mul"(%x, %zeros, %shift) : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

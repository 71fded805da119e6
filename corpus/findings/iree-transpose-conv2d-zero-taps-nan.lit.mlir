// RUN: mlir-opt %s --tosa-optional-decompositions | FileCheck %s

// TOSA 1.0 TRANSPOSE_CONV2D adds input[ix] only to output columns
// ix * stride_x + out_pad_left + kx. With stride 3 and a 1-wide kernel, output
// columns 1 and 2 get no product and are the bias (0), whatever the input.
// The strided decomposition pads the weight with zeros up to the stride and
// runs a stride-1 CONV2D over every phase, so columns 1 and 2 become
// input * 0: for input [inf, 2] and weight [1] the decomposed graph computes
// [inf, NaN, NaN, 2] where TOSA gives [inf, 0, 0, 2]. (TOSA's optional extra
// multiplies only ever multiply a zero *input* by the real weight; they never
// multiply a real input by a zero weight.)

// CHECK-LABEL: func.func @strided_transpose_conv2d_zero_taps
// CHECK-SAME: %[[IN:[^:]+]]: tensor<1x1x2x1xf32>, %[[W:[^:]+]]: tensor<1x1x1x1xf32>
// CHECK: tosa.pad %[[W]], {{.+}} -> tensor<1x1x3x1xf32>
// CHECK: tosa.conv2d %[[IN]], {{.+}} -> tensor<1x1x2x3xf32>
func.func @strided_transpose_conv2d_zero_taps(%in: tensor<1x1x2x1xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x1x4x1xf32> {
  %bias = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = "tosa.transpose_conv2d"(%in, %w, %bias, %zp, %zp) <{out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 3>, acc_type = f32, local_bound = false}> : (tensor<1x1x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4x1xf32>
  return %0 : tensor<1x1x4x1xf32>
}

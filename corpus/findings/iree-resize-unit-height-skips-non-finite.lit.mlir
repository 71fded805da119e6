// RUN: mlir-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg))" | FileCheck %s

// TOSA 1.0 RESIZE (BILINEAR) computes every output from four taps,
// v00*(1-dy)*(1-dx) + v01*(1-dy)*dx + v10*dy*(1-dx) + v11*dy*dx, the row
// index clamped to the input. With one input row, v10 = v00 and dy = 0, so an
// infinite v00 makes the term v10*dy NaN: input [inf, 1] gives [NaN, NaN, 1].
// The lowering interpolates the top row, computes the bottom row, and then
// yields the top row alone (no multiplication by dy), giving [inf, inf, 1].

// CHECK-LABEL: func.func @resize_one_row
// CHECK: linalg.generic
// CHECK: %[[TOP:.+]] = arith.addf
// CHECK: %[[BOTTOM:.+]] = arith.addf
// CHECK-NOT: %[[BOTTOM]]
// CHECK: linalg.yield %[[TOP]] : f32
func.func @resize_one_row(%arg0: tensor<1x1x2x1xf32>) -> tensor<1x1x3x1xf32> {
  %scale = "tosa.const_shape"() <{values = dense<[2, 2, 2, 1]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %zero = "tosa.const_shape"() <{values = dense<[0, 0]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %0 = "tosa.resize"(%arg0, %scale, %zero, %zero) <{mode = #tosa.resize_mode<BILINEAR>}> : (tensor<1x1x2x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1x3x1xf32>
  return %0 : tensor<1x1x3x1xf32>
}

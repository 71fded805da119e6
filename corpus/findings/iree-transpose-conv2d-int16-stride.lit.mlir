// RUN: mlir-opt %s --tosa-optional-decompositions | FileCheck %s
// RUN: not mlir-opt %s --tosa-attach-target="profiles=pro_int extensions=int16" --tosa-optional-decompositions --tosa-validate 2>&1 | FileCheck %s --check-prefix=VALIDATE

// An EXT-INT16 TRANSPOSE_CONV2D (i16 input, i8 weight, i48 accumulator and
// result) with stride 2 is valid TOSA 1.0. The strided decomposition rewrites
// it into a CONV2D followed by RESHAPE, TRANSPOSE, SLICE and ADD of the i48
// convolution result; TOSA defines no i48 RESHAPE, SLICE or ADD, so the TOSA
// validation pass refuses the graph the decomposition made.

// CHECK-LABEL: func.func @transpose_conv2d_int16_stride2
// CHECK: tosa.conv2d {{.+}} -> tensor<1x2x1x2xi48>
// CHECK: tosa.reshape {{.+}} : (tensor<1x2x1x2xi48>, !tosa.shape<6>) -> tensor<1x2x1x2x1x1xi48>
// CHECK: tosa.slice {{.+}} -> tensor<1x3x1x1xi48>
// CHECK: tosa.add {{.+}} -> tensor<1x3x1x1xi48>

// VALIDATE: error: 'tosa.reshape' op illegal: operation operand/result data types did not align with any profile or extension, got (i48,i48)
func.func @transpose_conv2d_int16_stride2(%arg0: tensor<1x2x1x1xi16>, %arg1: tensor<1x1x1x1xi8>, %arg2: tensor<1xi48>) -> tensor<1x3x1x1xi48> {
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %wzp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = "tosa.transpose_conv2d"(%arg0, %arg1, %arg2, %izp, %wzp) <{out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 1>, acc_type = i48, local_bound = false}> : (tensor<1x2x1x1xi16>, tensor<1x1x1x1xi8>, tensor<1xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x3x1x1xi48>
  return %0 : tensor<1x3x1x1xi48>
}

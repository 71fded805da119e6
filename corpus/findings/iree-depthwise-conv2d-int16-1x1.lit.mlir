// RUN: mlir-opt %s --tosa-optional-decompositions | FileCheck %s
// RUN: not mlir-opt %s --tosa-attach-target="profiles=pro_int extensions=int16" --tosa-optional-decompositions --tosa-validate 2>&1 | FileCheck %s --check-prefix=VALIDATE

// An EXT-INT16 DEPTHWISE_CONV2D (i16 input, i8 weight, i48 accumulator and
// result) with a 1x1 kernel is valid TOSA 1.0. The 1x1 decomposition rewrites
// it into CASTs of the input and the weight to the i48 result type, RESHAPEs
// and a MUL on i48; TOSA defines no i16->i48 or i8->i48 CAST and no i48 MUL,
// so the TOSA validation pass refuses the graph the decomposition made.

// CHECK-LABEL: func.func @depthwise_conv2d_int16_1x1
// CHECK: tosa.cast {{.+}} : (tensor<1x1x1x2x1xi16>) -> tensor<1x1x1x2x1xi48>
// CHECK: tosa.cast {{.+}} : (tensor<1x1x2x1xi8>) -> tensor<1x1x2x1xi48>
// CHECK: tosa.mul {{.+}} -> tensor<1x1x1x2x1xi48>

// VALIDATE: error: 'tosa.cast' op illegal: operation operand/result data types did not align with any profile or extension, got (i16,i48)
func.func @depthwise_conv2d_int16_1x1(%arg0: tensor<1x1x1x2xi16>, %arg1: tensor<1x1x2x1xi8>) -> tensor<1x1x1x2xi48> {
  %bias = "tosa.const"() <{values = dense<0> : tensor<1xi48>}> : () -> tensor<1xi48>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %wzp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = "tosa.depthwise_conv2d"(%arg0, %arg1, %bias, %izp, %wzp) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i48, local_bound = false}> : (tensor<1x1x1x2xi16>, tensor<1x1x2x1xi8>, tensor<1xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x1x1x2xi48>
  return %0 : tensor<1x1x1x2xi48>
}

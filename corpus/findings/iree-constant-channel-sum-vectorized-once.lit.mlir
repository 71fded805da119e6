// RUN: mlir-opt %s --transform-interpreter | FileCheck %s

// A reduction over d1 (size 4) whose body adds a constant and ignores the
// reduced input: with a zero init, every result is 4 * (-11) = -44.
// linalg::vectorize adds the constant once, without a vector.multi_reduction
// over d1, so every row gets -11.

#map_in = affine_map<(d0, d1) -> (d0, d1)>
#map_out = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @channel_sum_of_constant
func.func @channel_sum_of_constant(%x: tensor<3x4xi32>) -> tensor<3xi32> {
  %zero = arith.constant dense<0> : tensor<3xi32>
  %sum = linalg.generic {indexing_maps = [#map_in, #map_out],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x4xi32>) outs(%zero : tensor<3xi32>) {
  ^bb0(%in: i32, %acc: i32):
    %c = arith.constant -11 : i32
    %r = arith.addi %acc, %c : i32
    linalg.yield %r : i32
  } -> tensor<3xi32>
  // Expected: 4 * (-11) = -44 per row. Seen: one addition of -11, no
  // reduction over d1.
  // CHECK: %[[INIT:.+]] = vector.transfer_read {{.*}} : tensor<3xi32>, vector<3xi32>
  // CHECK: %[[C:.+]] = arith.constant dense<-11> : vector<3xi32>
  // CHECK: %[[SUM:.+]] = arith.addi %[[INIT]], %[[C]] : vector<3xi32>
  // CHECK: vector.transfer_write %[[SUM]]
  // CHECK-NOT: vector.multi_reduction
  return %sum : tensor<3xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g : !transform.any_op
    transform.yield
  }
}

// RUN: mlir-opt %s --test-math-polynomial-approximation | FileCheck %s

// The f32 sin/cos approximation reduces the argument with one single-precision
// step, k = floor(x * 2/pi), y = x - k * pi/2, and evaluates a polynomial in
// y. For |x| beyond about 2^24 the product k * pi/2 is not exact, so y is a
// multiple of ulp(x) (about 2^104 for x near 2e38) instead of a value in
// [0, pi/2); y * y overflows and the result is +-inf, and arith.fptosi of k
// overflows i32. sin of a finite value lies in [-1, 1]: with IREE 3.13
// (which applies these patterns on llvm-cpu; host CPU with FMA)
// sin(1e10) = -6.03e21, sin(1e20) = -inf, sin(-1.97e38) = inf.

// CHECK-LABEL: func.func @sin_f32
// CHECK: %[[M:.+]] = arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK: %[[K:.+]] = math.floor %[[M]] : f32
// CHECK: %[[KP:.+]] = arith.mulf %[[K]], %{{.+}} : f32
// CHECK: %[[Y:.+]] = arith.subf %{{.+}}, %[[KP]] : f32
// CHECK: arith.fptosi %[[K]] : f32 to i32
// CHECK: arith.mulf %[[Y]], %[[Y]] : f32
// CHECK-NOT: math.absf
// CHECK: return
func.func @sin_f32(%x: f32) -> f32 {
  %0 = math.sin %x : f32
  return %0 : f32
}

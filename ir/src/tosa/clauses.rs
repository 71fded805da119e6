//! What each TOSA 1.0 operator computes and how exactly, as text a bug
//! report can quote: the "Semantics" and "FP accuracy" paragraphs of each
//! operator page of the project's TOSA.001000.1 implementer's reference
//! (section 4, restating the TOSA 1.0.2 specification's pseudocode and its
//! appendix on floating-point accuracy). Generated once from that reference;
//! `clause_tests` checks that every operator has one.

use super::TosaOp;

/// The text of one operator page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clause {
    /// The operator.
    pub op: TosaOp,
    /// The section of the reference (`4.3 Element-wise binary operators`).
    pub section: &'static str,
    /// What it computes.
    pub semantics: &'static str,
    /// How exactly a floating-point result must match.
    pub accuracy: &'static str,
}

/// The page of `op`.
pub fn clause(op: TosaOp) -> Option<&'static Clause> {
    CLAUSES.iter().find(|c| c.op == op)
}

static CLAUSES: &[Clause] = &[
    Clause {
        op: TosaOp::Argmax,
        section: "4.1 Tensor operators",
        semantics: "For every position of the non-axis dimensions, scan `i = 0 .. shape1[axis]-1` and return the index of the first maximum. Integer: start with `max = minimum<in_t>`, index 0; replace only when the new element is strictly greater (`apply_max_s` result differs from the running max), so ties keep the first index and an all-minimum row returns 0. Floating point: `PROPAGATE` — the first NaN wins (NaN is treated as greater than everything; once the running value is NaN it never changes). `IGNORE` — the running value starts as NaN, the first non-NaN element replaces it, NaNs are then skipped; an all-NaN row returns index 0. Zeros of either sign compare equal; equal infinities compare equal.",
        accuracy: "Result is an integer index: must match exactly (EXACT mode). NaN/zero/infinity ordering as described above.",
    },
    Clause {
        op: TosaOp::AvgPool2d,
        section: "4.1 Tensor operators",
        semantics: "For each output element, visit the `kernel_y x kernel_x` window whose top-left input coordinate is `(oy*stride_y - pad_top, ox*stride_x - pad_left)`; only positions inside the input are used and counted (`count` = number of valid positions, padding is never counted). Integer (acc i32): `acc = sum(x - input_zp)` (each add REQUIREs no i32 overflow); then `(mult, shift) = reciprocal_scale(count)`; `acc = apply_scale_32(acc, mult, shift, double_round=false)`; `acc += output_zp`; clip to the signed range of the i8/i16 output type. `reciprocal_scale(c)`: `k = 32 - clz(c - 1)` (so `2^(k-1) < c <= 2^k`), `mult = (((1<<30) + 1) << k) / c` (integer division, result in [2^30, 2^31)), `shift = 30 + k`. Floating point: accumulate in acc_t, output = `acc / count` (count converted to the element type).",
        accuracy: "Dot-product rule with weights 1/KS, KS = kernel_y*kernel_x (Appendix A AVG_POOL2D); bf16/fp16/fp32 subnormal inputs may be flushed.",
    },
    Clause {
        op: TosaOp::Conv2d,
        section: "4.1 Tensor operators",
        semantics: "`out[n,oy,ox,oc] = bias[BC==1 ? 0 : oc] + sum_{ky,kx,ic} (in[n, oy*sy - pt + ky*dy, ox*sx - pl + kx*dx, ic] - input_zp) * (w[oc,ky,kx,ic] - weight_zp)`. Input positions outside `[0,IH) x [0,IW)` contribute 0 (i.e. padding acts as a value equal to input_zp). Accumulation in acc_t (i32 for i8x8, i48 for i16x8; every add REQUIREs no overflow of acc_t); then `out = static_cast<out_t>(acc) + bias` (bias add REQUIREs no overflow). FP: accumulate in acc_t (fp16 or fp32), convert to out_t, add bias in out_t (only accuracy, not order, is normative).",
        accuracy: "Dot-product rule, KS = KW*KH*IC. `local_bound=false` (default) uses the global max |input| in the bound (allows Winograd/FFT style algorithms); `true` uses per-element |input|.",
    },
    Clause {
        op: TosaOp::Conv3d,
        section: "4.1 Tensor operators",
        semantics: "As CONV2D with an extra depth dimension: input coordinate `d = od*stride_d - pad_d0 + kd*dilation_d`; out-of-range positions contribute 0.",
        accuracy: "Dot-product rule, KS = KD*KH*KW*IC.",
    },
    Clause {
        op: TosaOp::DepthwiseConv2d,
        section: "4.1 Tensor operators",
        semantics: "`out[n,oy,ox,c*M+m] = bias[BC==1 ? 0 : c*M+m] + sum_{ky,kx} (in[n, oy*sy-pt+ky*dy, ox*sx-pl+kx*dx, c] - input_zp) * (w[ky,kx,c,m] - weight_zp)`; padding contributes 0.",
        accuracy: "Dot-product rule, KS = KH*KW.",
    },
    Clause {
        op: TosaOp::Fft2d,
        section: "4.1 Tensor operators",
        semantics: "Unnormalised 2-D DFT per batch. With `s = +1` (forward) or `-1` (inverse), `a = s*2*pi*(((iy*oy) mod H)/H + ((ix*ox) mod W)/W)`: `re_out = sum (re*cos a + im*sin a)`, `im_out = sum (-re*sin a + im*cos a)` over all `(iy,ix)`, i.e. `X = sum x * exp(-i*a)`. No 1/(H*W) scaling for the inverse.",
        accuracy: "Dot-product rule per output (inputs interleaved re/im), KS = 2*H*W. Only fp32 (EXT-FFT).",
    },
    Clause {
        op: TosaOp::Matmul,
        section: "4.1 Tensor operators",
        semantics: "`out[n,h,w] = sum_c (A[n,h,c] - A_zp) * (B[n,c,w] - B_zp)` accumulated in out_t (i32 for i8, i48 for i16; each add REQUIREs no overflow).",
        accuracy: "Dot-product rule, KS = C.",
    },
    Clause {
        op: TosaOp::MaxPool2d,
        section: "4.1 Tensor operators",
        semantics: "Maximum over the valid (in-bounds) window positions; padding never contributes. Initial value: integer -> type minimum; FP with IGNORE -> NaN; FP with PROPAGATE -> type minimum. PROPAGATE: any NaN in the window gives NaN. IGNORE: NaNs skipped, all-NaN window gives NaN.",
        accuracy: "Exact (zero result may have either sign; subnormal results may flush to zero for bf16/fp16/fp32).",
    },
    Clause {
        op: TosaOp::Rfft2d,
        section: "4.1 Tensor operators",
        semantics: "`re_out = sum x*cos a`, `im_out = -sum x*sin a` with `a = 2*pi*(((iy*oy) mod H)/H + ((ix*ox) mod W)/W)`, `0 <= ox <= W/2`. The imaginary parts at (0,0), (0,W/2), (H/2,0), (H/2,W/2) may be skipped, but then must be exactly 0.",
        accuracy: "Dot-product rule, KS = H*W. fp32 only (EXT-FFT).",
    },
    Clause {
        op: TosaOp::TransposeConv2d,
        section: "4.1 Tensor operators",
        semantics: "`out[n,oy,ox,oc] = bias[..] + sum_{ky,kx,ic} (in[n,iy,ix,ic] - input_zp)*(w[oc,ky,kx,ic] - weight_zp)` where `y = oy - out_pad_top - ky`, `x = ox - out_pad_left - kx`, and the term is present only if `0 <= y < IH*stride_y`, `0 <= x < IW*stride_x`, `y % stride_y == 0`, `x % stride_x == 0`; then `iy = y/stride_y`, `ix = x/stride_x`. Equivalently each input pixel (iy,ix) is scattered to output `(iy*stride_y + out_pad_top + ky, ix*stride_x + out_pad_left + kx)` when that lies inside the output.",
        accuracy: "Dot-product rule, KS = KH*KW*IC. ### 4.2 Activation functions",
    },
    Clause {
        op: TosaOp::Clamp,
        section: "4.2 Activation functions",
        semantics: "`out = min(max(x, min_val), max_val)` with signed integer comparison (no zero-point handling: to clamp at a zero point pass the zp as min). FP PROPAGATE: NaN in -> NaN out. FP IGNORE: NaN in -> `min_val` out.",
        accuracy: "Exact; ±0 either sign; subnormal may flush.",
    },
    Clause {
        op: TosaOp::Erf,
        section: "4.2 Activation functions",
        semantics: "`erf(x) = 2/sqrt(pi) * integral_0^x exp(-t^2) dt`. Integer ERF is expressed with TABLE (513-entry table over [-4,4] in steps of 1/64).",
        accuracy: "`tosa_reference_check_fp(out, ref, 5)` — 5 ulp.",
    },
    Clause {
        op: TosaOp::Sigmoid,
        section: "4.2 Activation functions",
        semantics: "`1 / (1 + exp(-x))`. Integer sigmoid uses TABLE.",
        accuracy: "abs bound `calcAbsErrorBound(out_ref, 2*(1+|x|), 0, 1)`. Specials: -inf->0, +inf->1, ±0->0.5, NaN->any NaN.",
    },
    Clause {
        op: TosaOp::Tanh,
        section: "4.2 Activation functions",
        semantics: "`tanh(x)`. Integer tanh uses TABLE.",
        accuracy: "`err_base = 3 (fp32) / 1 (fp16, bf16)`; bound `calcAbsErrorBound(out_ref, 4*(err_base + 2*|x|), 0.5, 1)`. Specials: -inf->-1, +inf->1, -0->-0, +0->+0, NaN->any NaN. ### 4.3 Element-wise binary operators",
    },
    Clause {
        op: TosaOp::Add,
        section: "4.3 Element-wise binary operators",
        semantics: "`a + b`. Integer (i32): exact, REQUIRE no signed overflow.",
        accuracy: "0.5 ulp (`tosa_reference_check_fp(...,0.5)`); NaN in -> NaN; +inf + -inf -> NaN; subnormal inputs/results may be flushed to signed zero.",
    },
    Clause {
        op: TosaOp::ArithmeticRightShift,
        section: "4.3 Element-wise binary operators",
        semantics: "`r = sign_extend32(a) >> b` (arithmetic). If `round` and `b > 0` and bit `(b-1)` of `a` is 1, `r += 1` (round half up). Result stored in the element type.",
        accuracy: "n/a (integer only)",
    },
    Clause {
        op: TosaOp::BitwiseAnd,
        section: "4.3 Element-wise binary operators",
        semantics: "`a & b` on the two's-complement bit patterns.",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::BitwiseOr,
        section: "4.3 Element-wise binary operators",
        semantics: "`a | b` on the two's-complement bit patterns.",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::BitwiseXor,
        section: "4.3 Element-wise binary operators",
        semantics: "`a ^ b` on the two's-complement bit patterns.",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::Intdiv,
        section: "4.3 Element-wise binary operators",
        semantics: "`a / b` truncating toward zero (C semantics), computed in 64-bit then range-checked.",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::LogicalAnd,
        section: "4.3 Element-wise binary operators",
        semantics: "`a && b` on booleans.",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::LogicalLeftShift,
        section: "4.3 Element-wise binary operators",
        semantics: "`a << b`, keeping only the low `bits(elem)` bits (bits shifted out are lost; sign bit may change).",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::LogicalRightShift,
        section: "4.3 Element-wise binary operators",
        semantics: "treat `a` as an unsigned value of the element width, shift right by `b`, fill with zeros (e.g. i8 `-128 >> 1 = 64`).",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::LogicalOr,
        section: "4.3 Element-wise binary operators",
        semantics: "`a || b` on booleans.",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::LogicalXor,
        section: "4.3 Element-wise binary operators",
        semantics: "`a != b` on booleans.",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::Maximum,
        section: "4.3 Element-wise binary operators",
        semantics: "`max(a, b)`; integers compared signed. FP PROPAGATE: either NaN -> NaN. IGNORE: one NaN -> the other operand; both NaN -> NaN.",
        accuracy: "Exact; zero result may be either sign; subnormal results may flush (bf16/fp16/fp32).",
    },
    Clause {
        op: TosaOp::Minimum,
        section: "4.3 Element-wise binary operators",
        semantics: "`min(a, b)`; integers compared signed. FP PROPAGATE: either NaN -> NaN. IGNORE: one NaN -> the other operand; both NaN -> NaN.",
        accuracy: "Exact; zero result may be either sign; subnormal results may flush (bf16/fp16/fp32).",
    },
    Clause {
        op: TosaOp::Mul,
        section: "4.3 Element-wise binary operators",
        semantics: "Integer with i32 inputs and `shift > 0`: `p = (int64)a * b; p = (p + (1 << (shift-1))) >> shift` (arithmetic shift, i.e. round half up); REQUIRE p fits i32. Otherwise (shift == 0, or i8/i16 inputs): result = low 32 bits of `a * b` (the spec defines no overflow check here; i8/i16 products cannot overflow i32, i32 products wrap). FP: IEEE product.",
        accuracy: "0.5 ulp; NaN -> NaN; inf*0 -> NaN; inf*inf -> inf with correct sign; subnormals may flush.",
    },
    Clause {
        op: TosaOp::Pow,
        section: "4.3 Element-wise binary operators",
        semantics: "`a ** b`.",
        accuracy: "x==0,y>0 -> 0; x>0,y==0 -> 1. Otherwise `err_base = 3 (fp32)/1`; `mul_err = calcAbsErrorBound(y*log(x), 5.5, |0.55*y|, 1)`; `exp_err = calcAbsErrorBound(out_ref, err_base + 2*|y*log(x) + mul_err|, 0, 1)`; `err_bnd = out_ref*expm1(mul_err) + exp_err` (check_fp_bnd).",
    },
    Clause {
        op: TosaOp::Sub,
        section: "4.3 Element-wise binary operators",
        semantics: "`a - b`; i32: REQUIRE no signed overflow.",
        accuracy: "0.5 ulp; NaN -> NaN; subnormals may flush.",
    },
    Clause {
        op: TosaOp::Table,
        section: "4.3 Element-wise binary operators",
        semantics: "i8: `out = table[x + 128]`. i16: `apply_lookup_s`: `idx = (x + 32768) >> 7` (0..511), `frac = x & 0x7F`, `base = table[idx]`, `next = table[idx+1]`, `out = (base << 7) + (next - base) * frac` — a 16.7 fixed-point (23-bit) result in i32. Follow with RESCALE (e.g. scale32, multiplier 1<<14, shift 21) to get i16.",
        accuracy: "n/a (exact) ### 4.4 Element-wise unary operators",
    },
    Clause {
        op: TosaOp::Abs,
        section: "4.4 Element-wise unary operators",
        semantics: "Integer: `|x|` via `0 - x` (REQUIRE for INT32_MIN). FP: clear the sign (-0 -> +0, -inf -> +inf, NaN stays NaN).",
        accuracy: "Exact. Specials: -inf->+inf, +inf->+inf, -0->+0, +0->+0, NaN->NaN.",
    },
    Clause {
        op: TosaOp::BitwiseNot,
        section: "4.4 Element-wise unary operators",
        semantics: "`~x` (all bits inverted).",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::Ceil,
        section: "4.4 Element-wise unary operators",
        semantics: "round toward +inf.",
        accuracy: "0.5 ulp (i.e. exact for representable results). Specials: ±inf->±inf, -0->-0, +0->+0, NaN->any NaN.",
    },
    Clause {
        op: TosaOp::Clz,
        section: "4.4 Element-wise unary operators",
        semantics: "number of leading zero bits of the 32-bit pattern: `clz(0) = 32`, any negative value -> 0, `clz(1) = 31`.",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::Cos,
        section: "4.4 Element-wise unary operators",
        semantics: "cosine, radians.",
        accuracy: "abs bound `calcAbsErrorBound(1+|x|, 1, 0, 2)` (the bound is relative to the *input* magnitude, half the mantissa bits). Specials: ±inf->any NaN, ±0->+1, NaN->any NaN.",
    },
    Clause {
        op: TosaOp::Exp,
        section: "4.4 Element-wise unary operators",
        semantics: "e^x.",
        accuracy: "`err_base = 3 (fp32) / 1 (fp16,bf16)`; bound `calcAbsErrorBound(out_ref, err_base + 2*|x|, 0, 1)`. Specials: -inf->+0, +inf->+inf, ±0->1, NaN->any NaN.",
    },
    Clause {
        op: TosaOp::Floor,
        section: "4.4 Element-wise unary operators",
        semantics: "round toward -inf.",
        accuracy: "0.5 ulp. Specials: ±inf->±inf, -0->-0, +0->+0, NaN->any NaN.",
    },
    Clause {
        op: TosaOp::Log,
        section: "4.4 Element-wise unary operators",
        semantics: "natural log; x < 0 -> NaN; x == 0 -> -inf.",
        accuracy: "bound `calcAbsErrorBound(out_ref, 5, 0.5, 1)`. Specials: -inf->any NaN, +inf->+inf, ±0->-inf, NaN->any NaN; negative input must give NaN.",
    },
    Clause {
        op: TosaOp::LogicalNot,
        section: "4.4 Element-wise unary operators",
        semantics: "`!x`.",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::Negate,
        section: "4.4 Element-wise unary operators",
        semantics: "Integer (acc i32): `v = sext(x) - sext(input1_zp)`; `v = 0 - v`; `v += sext(output_zp)`; output = `clip(v, min<T>, max<T>)` (saturating for i8/i16: e.g. i8 -128 -> 127 with zp 0). Each i32 step REQUIREs no overflow (so i32 INT32_MIN is unpredictable). FP: `-x` (sign flip).",
        accuracy: "Exact. Specials: -inf->+inf, +inf->-inf, -0->+0, +0->-0, NaN->any NaN.",
    },
    Clause {
        op: TosaOp::Reciprocal,
        section: "4.4 Element-wise unary operators",
        semantics: "1/x.",
        accuracy: "1 ulp. Specials: -inf->-0, +inf->+0, -0->-inf, +0->+inf, NaN->any NaN.",
    },
    Clause {
        op: TosaOp::Rsqrt,
        section: "4.4 Element-wise unary operators",
        semantics: "1/sqrt(x); x < 0 -> NaN.",
        accuracy: "2 ulp. Specials: -inf->NaN, +inf->+0, -0->-inf, +0->+inf, NaN->any NaN.",
    },
    Clause {
        op: TosaOp::Sin,
        section: "4.4 Element-wise unary operators",
        semantics: "sine, radians.",
        accuracy: "bound `max(calcAbsErrorBound(x, 2, 0, 2), pi*normal_min<T>)` (relative to input magnitude). Specials: ±inf->any NaN, -0->-0, +0->+0, NaN->any NaN. ### 4.5 Element-wise ternary operator",
    },
    Clause {
        op: TosaOp::Select,
        section: "4.5 Element-wise ternary operator",
        semantics: "`out = cond ? a : b` element-wise (pure data movement).",
        accuracy: "Exact (a NaN output may be any NaN; subnormal inputs may flush). ### 4.6 Comparison operators",
    },
    Clause {
        op: TosaOp::Equal,
        section: "4.6 Comparison operators",
        semantics: "`a == b` (integers signed). Any NaN operand -> false. -0 == +0. Equal-signed infinities compare equal.",
        accuracy: "Exact (subnormal inputs may be flushed before comparing).",
    },
    Clause {
        op: TosaOp::Greater,
        section: "4.6 Comparison operators",
        semantics: "`a > b` (integers signed). Any NaN operand -> false. -0 == +0. Equal-signed infinities compare equal.",
        accuracy: "Exact (subnormal inputs may be flushed before comparing).",
    },
    Clause {
        op: TosaOp::GreaterEqual,
        section: "4.6 Comparison operators",
        semantics: "`a >= b` (integers signed). Any NaN operand -> false. -0 == +0. Equal-signed infinities compare equal.",
        accuracy: "Exact (subnormal inputs may be flushed before comparing). ### 4.7 Reduction operators",
    },
    Clause {
        op: TosaOp::ReduceAll,
        section: "4.7 Reduction operators",
        semantics: "logical AND over the axis (init true).",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::ReduceAny,
        section: "4.7 Reduction operators",
        semantics: "logical OR over the axis (init false).",
        accuracy: "n/a",
    },
    Clause {
        op: TosaOp::ReduceMax,
        section: "4.7 Reduction operators",
        semantics: "max over the axis; init = type minimum (FP IGNORE: NaN). PROPAGATE: any NaN -> NaN; IGNORE: NaNs skipped, all-NaN -> NaN.",
        accuracy: "Exact; zero of either sign; subnormal may flush.",
    },
    Clause {
        op: TosaOp::ReduceMin,
        section: "4.7 Reduction operators",
        semantics: "min over the axis; init = type maximum (FP IGNORE: NaN). NaN rules as REDUCE_MAX.",
        accuracy: "Exact; zero of either sign; subnormal may flush.",
    },
    Clause {
        op: TosaOp::ReduceProduct,
        section: "4.7 Reduction operators",
        semantics: "product over the axis (init 1.0).",
        accuracy: "NaN input -> NaN. Otherwise `err_bnd = max(|out_ref|, normal_min) * ((1 + 2^-(normal_frac+1))^n - 1)`, n = shape1[axis] (check_fp_bnd).",
    },
    Clause {
        op: TosaOp::ReduceSum,
        section: "4.7 Reduction operators",
        semantics: "sum over the axis; i32 accumulates in i32 (REQUIRE no overflow); fp16 accumulates in fp16, bf16 in fp32, fp32 in fp32.",
        accuracy: "Dot-product rule with a vector of ones, KS = shape1[axis]. ### 4.8 Data-layout operators",
    },
    Clause {
        op: TosaOp::Concat,
        section: "4.8 Data-layout operators",
        semantics: "Copy inputs in order along `axis` (no conversion).",
        accuracy: "exact",
    },
    Clause {
        op: TosaOp::Pad,
        section: "4.8 Data-layout operators",
        semantics: "Output element = input element at `index - before` if inside the input, else `pad_const`.",
        accuracy: "exact",
    },
    Clause {
        op: TosaOp::Reshape,
        section: "4.8 Data-layout operators",
        semantics: "Row-major (last dimension fastest) linear order is preserved: output element at linear offset k = input element at linear offset k.",
        accuracy: "exact",
    },
    Clause {
        op: TosaOp::Reverse,
        section: "4.8 Data-layout operators",
        semantics: "`out[..., i, ...] = in[..., shape[axis]-1-i, ...]` along `axis`.",
        accuracy: "exact",
    },
    Clause {
        op: TosaOp::Slice,
        section: "4.8 Data-layout operators",
        semantics: "`out[idx] = in[idx + start]`.",
        accuracy: "exact",
    },
    Clause {
        op: TosaOp::Tile,
        section: "4.8 Data-layout operators",
        semantics: "`out[idx] = in[idx mod in_shape]` (per dimension).",
        accuracy: "exact",
    },
    Clause {
        op: TosaOp::Transpose,
        section: "4.8 Data-layout operators",
        semantics: "`out[i_0..i_{r-1}] = in[j]` with `j[perms[k]] = i_k`.",
        accuracy: "exact ### 4.9 Scatter/gather operators",
    },
    Clause {
        op: TosaOp::Gather,
        section: "4.9 Scatter/gather operators",
        semantics: "`out[n,w,c] = values[n, indices[n,w], c]`.",
        accuracy: "exact",
    },
    Clause {
        op: TosaOp::Scatter,
        section: "4.9 Scatter/gather operators",
        semantics: "`values_out = values_in`, then for every (n,w,c): `values_out[n, indices[n,w], c] = input[n,w,c]`.",
        accuracy: "exact ### 4.10 Image operator",
    },
    Clause {
        op: TosaOp::Resize,
        section: "4.10 Image operator",
        semantics: "For each output `(oy, ox)`: `y = oy*scale_y_d + offset_y`, `iy = floor(y / scale_y_n)`, `ry = y - iy*scale_y_n` (same for x). `iy0 = max(iy, 0)`, `iy1 = min(iy+1, IH-1)` (same for x). BILINEAR integer: `out = v00*(sy_n-ry)*(sx_n-rx) + v01*(sy_n-ry)*rx + v10*ry*(sx_n-rx) + v11*ry*rx` (inputs read as signed; result carries the factor `scale_y_n*scale_x_n`, remove it later with RESCALE). BILINEAR FP: `dy = ry/scale_y_n`, `dx = rx/scale_x_n` computed in the element type; standard bilinear weights `(1-dy)(1-dx)`, ... NEAREST: integer picks `iy1` if `2*ry >= scale_y_n` else `iy0` (FP: `dy >= 0.5`); same for x — ties round up.",
        accuracy: "`err_bnd = max(calcAbsErrorBound(max|input|, 20, 0, 1), 0.006 * max|input|)` (check_fp_bnd); reference model uses mode RELATIVE with scale 0.006 and ulp bound 20. ### 4.11 Type-conversion operators",
    },
    Clause {
        op: TosaOp::Cast,
        section: "4.11 Type-conversion operators",
        semantics: "* bool -> int: true -> 1, false -> 0.  int -> bool: `x != 0`. * int -> wider int: sign-extend.  int -> narrower int: keep the low bits (two's-complement wrap, e.g. i32 300 -> i8 44); no saturation. * int -> float: round to nearest (ties to even); out-of-range -> ±inf (e.g. large i32 -> fp16). * float -> int: round to nearest, ties to even, then **saturate** to the output range (the reference model maps ±inf to max/min); NaN input -> unpredictable (REQUIRE-like, any value). * float -> float: NaN -> NaN; mantissa rounded (round-to-nearest expected; the check also tolerates round-toward-zero); below min subnormal -> signed zero; bf16/fp16/fp32 subnormal results may flush; overflow -> ±inf, except fp8 outputs use the OCP **non-saturating** mode (fp8e4m3 has no inf -> NaN; fp8e5m2 -> ±inf).",
        accuracy: "int->float: 0.5 ulp. float->float (in range): `|ref| - 1ulp <= |out| <= |ref| + 0.5ulp` with the correct sign (reference model: ULP mode ulp=0.5, ulp_lower=1.0). float->int and *->bool: exact.",
    },
    Clause {
        op: TosaOp::Rescale,
        section: "4.11 Type-conversion operators",
        semantics: "Per element (`c` = index in the last dimension if `per_channel`, else 0): (1) extend input and input_zp (zero-extend if `input_unsigned`, else sign-extend) and subtract; (2) `r = scale32 ? apply_scale_32(v, multiplier[c], shift[c], rounding_mode == DOUBLE_ROUND) : apply_scale_16(v, multiplier[c], shift[c])`; (3) add output_zp (zero- or sign-extended per `output_unsigned`); (4) clip to `[0, 2^bits-1]` (unsigned output) or the signed range, store low bits. Helper definitions and INEXACT_ROUND tolerance: §3. Zero points are stored as bit patterns of the element type: a u16 zero point 32768 is the i16 constant `0x8000`, compare after zero-extension; a u8 zero point 128 is the i8 constant `0x80`. Typical uses: i32 accumulator -> i8 (`scale32`, per-channel), i8 <-> u8 conversion (i8->i8 with one unsigned flag), TABLE i16 result (16.7 in i32) -> i16 with multiplier `1<<14`, shift 21.",
        accuracy: "SINGLE_ROUND / DOUBLE_ROUND: exact. INEXACT_ROUND: see §3. ---",
    },
];

#[cfg(test)]
mod clause_tests {
    use super::*;

    #[test]
    fn every_operator_has_its_page() {
        for op in TosaOp::ALL {
            let c = clause(op).unwrap_or_else(|| panic!("{op}: no clause"));
            assert!(c.section.starts_with("4.") && !c.semantics.is_empty() && !c.accuracy.is_empty(), "{op}");
        }
    }
}

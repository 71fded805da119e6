//! Operand data as the TOSA conformance generator builds it
//! (`tosa_verif_build_tests` and the reference model's data generator),
//! for network-shaped graphs, whose dot-product operators otherwise see
//! only trained-network-like values.
//!
//! * Floating-point dot products (CONV2D, DEPTHWISE_CONV2D, MATMUL): the six
//!   test sets of the TOSA specification's dot-product accuracy section
//!   ([`DotSet`]): products that are all zero, large exponents (bound `B`
//!   chosen so the accumulator cannot overflow), small values accumulated
//!   onto a large first term (of similar or of varying magnitude), a mixture
//!   of zero and non-zero products, and signed values of large range. Each
//!   element's value depends on its index `k` in the dot product, as the
//!   generator maps it (for a convolution input, `k` follows the element's
//!   position modulo the kernel), so the first term of every sum really is
//!   the large one.
//! * Integer convolutions: the conformance generator's special sets for
//!   (input, weight, bias): every input at the type's maximum or lowest
//!   value with small weights, or one side all zero and the other at the
//!   maximum ([`IntConvSet`]).
//! * Floating-point element-wise operators: the special-value pairs of the
//!   generator's FP special tests ([`special_pairs`]): infinities of both
//!   signs against each other, NaN against finite values, ±0, the largest
//!   finite value plus a value within an ULP of it (overflow to infinity),
//!   smallest normals.

use crate::floats;
use crate::prng::SplitMix64;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::TosaOp;

/// A floating-point dot-product test set of the TOSA specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DotSet {
    /// Set 0: for each `k` one factor is zero, so every product is zero
    /// (the sum of products with zero gives zero).
    ZeroProducts,
    /// Set 1: values near `B / sqrt(KS + 1)`, the bias near `B² / (KS + 1)`:
    /// large exponents with an accumulator that stays finite.
    LargeExponents,
    /// Set 2: the first term 1, the others `s / sqrt(KS)`: small values of
    /// similar magnitude accumulated onto a large one.
    SmallOntoLarge,
    /// Set 3: the first term 16, the others `exp(2 s) s'`: small values of
    /// varying magnitude accumulated onto a large one.
    VaryingOntoLarge,
    /// Set 4: zero and non-zero products mixed, with one ±0.5 pair of
    /// opposite signs at `k = KS / 2`.
    MixedZeros,
    /// Set 5: signed values of large range, `B s / sqrt(KS + 1)`.
    SignedLarge,
}

impl DotSet {
    /// Every set, by its number in the specification.
    pub(crate) const ALL: [DotSet; 6] = [
        DotSet::ZeroProducts,
        DotSet::LargeExponents,
        DotSet::SmallOntoLarge,
        DotSet::VaryingOntoLarge,
        DotSet::MixedZeros,
        DotSet::SignedLarge,
    ];

    /// The set's number `S` in the specification.
    pub(crate) fn number(self) -> u32 {
        match self {
            DotSet::ZeroProducts => 0,
            DotSet::LargeExponents => 1,
            DotSet::SmallOntoLarge => 2,
            DotSet::VaryingOntoLarge => 3,
            DotSet::MixedZeros => 4,
            DotSet::SignedLarge => 5,
        }
    }

    /// Whether its values scale with the bound `B` (so the result may come
    /// near the largest finite value of the accumulator).
    pub(crate) fn large(self) -> bool {
        matches!(self, DotSet::LargeExponents | DotSet::MixedZeros | DotSet::SignedLarge)
    }
}

/// A dot product's data drawn from a test set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DotPlan {
    /// The set.
    pub set: DotSet,
    /// The seed both factors share (sets 0 and 4 decide per `k`).
    pub shared: u64,
    /// The data operand is a fresh graph input filled by the set too;
    /// otherwise only weights and bias are, scaled to the computed input.
    pub inputs_too: bool,
    /// The bound `B` ([`dot_bound`]).
    pub bound: f64,
}

/// Which operand of a dot product data is drawn for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DotRole {
    /// The data operand (convolution input, MATMUL A).
    Input,
    /// The weights (convolution weight, MATMUL B).
    Weight,
    /// The bias (added once to each sum).
    Bias,
}

/// The bound `B` of the dot-product test sets for inputs of `data` summed
/// in `acc` and written as `out`: the specification's value for the
/// accumulator, lowered so that `B²`, the largest sum the sets make, is
/// also finite in the output type (an fp16 result of an fp32 accumulator).
pub(crate) fn dot_bound(data: ElemType, acc: ElemType, out: ElemType) -> f64 {
    let spec = match (data, acc) {
        (ElemType::Fp16, ElemType::Fp16) => 255.875,
        (ElemType::Fp16, ElemType::Fp32) => 65504.0,
        (ElemType::Bf16, ElemType::Fp32) => 18_374_686_479_671_623_680.0,
        (ElemType::Fp32, ElemType::Fp32) => 18_446_742_974_197_923_840.0,
        // Any other pair: the largest bound whose square the output holds.
        _ => f64::INFINITY,
    };
    spec.min(floats::max_finite(out).sqrt() * (1.0 - 1.0 / 256.0))
}

/// The values of one dot-product operand under `plan`'s set.
///
/// `ks` is the number of terms of each sum; `k_of(i)` the index in the sum
/// of element `i` (`0..ks`); the plan's `shared` seed is common to the
/// operands of one operator, so that sets 0 and 4 decide per `k`, for both
/// factors alike, which one is zero; `rng` draws the free values.
pub(crate) fn dot_values(
    plan: &DotPlan,
    role: DotRole,
    ks: u64,
    count: usize,
    k_of: impl Fn(usize) -> u64,
    rng: &mut SplitMix64,
) -> Vec<f64> {
    let (set, bound, shared) = (plan.set, plan.bound, plan.shared);
    let ks_f = ks.max(1) as f64;
    let signed = |rng: &mut SplitMix64| 2.0 * rng.unit() - 1.0;
    // A value in [-1, 1] that depends on `k` alone (the same for both factors).
    let keyed = |k: u64| {
        let mut r = SplitMix64::new(shared ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        2.0 * r.unit() - 1.0
    };
    (0..count)
        .map(|i| {
            let k = k_of(i);
            match (set, role) {
                (DotSet::ZeroProducts, DotRole::Bias) => 0.0,
                (DotSet::ZeroProducts, DotRole::Input) => {
                    if keyed(k) < 0.0 {
                        0.0
                    } else {
                        signed(rng)
                    }
                }
                (DotSet::ZeroProducts, DotRole::Weight) => {
                    if keyed(k) < 0.0 {
                        signed(rng)
                    } else {
                        0.0
                    }
                }
                (DotSet::LargeExponents, r) => {
                    let v = 0.75 + 0.25 * signed(rng);
                    if r == DotRole::Bias {
                        bound * bound / (ks_f + 1.0) * v
                    } else {
                        bound / (ks_f + 1.0).sqrt() * v
                    }
                }
                (DotSet::SmallOntoLarge | DotSet::VaryingOntoLarge | DotSet::SignedLarge, DotRole::Bias) => 0.0,
                (DotSet::SmallOntoLarge, _) => {
                    if k == 0 {
                        1.0
                    } else {
                        signed(rng) / ks_f.sqrt()
                    }
                }
                (DotSet::VaryingOntoLarge, _) => {
                    if k == 0 {
                        16.0
                    } else {
                        let (s0, s1) = (signed(rng), signed(rng));
                        (2.0 * s0).exp() * s1
                    }
                }
                (DotSet::MixedZeros, DotRole::Bias) => 0.0,
                (DotSet::MixedZeros, r) => {
                    let s0 = keyed(k);
                    let input = r == DotRole::Input;
                    if k == ks / 2 {
                        if (s0 < 0.0) == input {
                            -0.5
                        } else {
                            0.5
                        }
                    } else if (s0 < 0.0) == input {
                        0.0
                    } else {
                        bound / ks_f.sqrt() * signed(rng)
                    }
                }
                (DotSet::SignedLarge, _) => bound / (ks_f + 1.0).sqrt() * signed(rng),
            }
        })
        .collect()
}

/// `values` rounded to `elem`, as raw bits.
pub(crate) fn encode_all(elem: ElemType, values: &[f64]) -> Vec<u64> {
    values.iter().map(|&v| floats::encode(elem, v)).collect()
}

/// Index `k` in the dot product of element `t` of a convolution input
/// `[N, IH, IW, IC]` for a `KH x KW` kernel (the conformance generator's
/// mapping: the position modulo the kernel, then the channel).
pub(crate) fn conv_input_k(t: usize, shape: &[u32], kh: u32, kw: u32) -> u64 {
    let (iw, ic) =
        (shape.get(2).copied().unwrap_or(1).max(1) as usize, shape.get(3).copied().unwrap_or(1).max(1) as usize);
    let ih = shape.get(1).copied().unwrap_or(1).max(1) as usize;
    let c = t % ic;
    let x = (t / ic) % iw;
    let y = (t / ic / iw) % ih;
    (((y % kh.max(1) as usize) * kw.max(1) as usize + x % kw.max(1) as usize) * ic + c) as u64
}

/// Index `k` of element `t` of a CONV2D weight `[OC, KH, KW, IC]`.
pub(crate) fn conv_weight_k(t: usize, shape: &[u32]) -> u64 {
    let (kw, ic) =
        (shape.get(2).copied().unwrap_or(1).max(1) as usize, shape.get(3).copied().unwrap_or(1).max(1) as usize);
    let kh = shape.get(1).copied().unwrap_or(1).max(1) as usize;
    let c = t % ic;
    let x = (t / ic) % kw;
    let y = (t / ic / kw) % kh;
    ((y * kw + x) * ic + c) as u64
}

/// Index `k` of element `t` of a DEPTHWISE_CONV2D weight `[KH, KW, C, M]`
/// (each output channel sums `KH * KW` terms).
pub(crate) fn depthwise_weight_k(t: usize, shape: &[u32]) -> u64 {
    let (c, m) =
        (shape.get(2).copied().unwrap_or(1).max(1) as usize, shape.get(3).copied().unwrap_or(1).max(1) as usize);
    (t / (c * m)) as u64
}

/// Index `k` of element `t` of a MATMUL B `[N, C, W]` (its row).
pub(crate) fn matmul_b_k(t: usize, shape: &[u32]) -> u64 {
    let (c, w) =
        (shape.get(1).copied().unwrap_or(1).max(1) as usize, shape.get(2).copied().unwrap_or(1).max(1) as usize);
    ((t / w) % c) as u64
}

/// The conformance generator's special data sets for an integer
/// convolution, named input then weights (the bias is zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntConvSet {
    /// Every input at the type's maximum, small weights, zero bias.
    MaxSmall,
    /// Every input at the type's lowest value, small weights, zero bias.
    LowestSmall,
    /// Inputs at the maximum, zero weights (no overflow whatever the size).
    MaxZero,
    /// Zero inputs, weights at the maximum.
    ZeroMax,
}

impl IntConvSet {
    /// Every set.
    pub(crate) const ALL: [IntConvSet; 4] =
        [IntConvSet::MaxSmall, IntConvSet::LowestSmall, IntConvSet::MaxZero, IntConvSet::ZeroMax];

    /// A short name for the case's features.
    pub(crate) fn name(self) -> &'static str {
        match self {
            IntConvSet::MaxSmall => "max-input-small-weights",
            IntConvSet::LowestSmall => "lowest-input-small-weights",
            IntConvSet::MaxZero => "max-input-zero-weights",
            IntConvSet::ZeroMax => "zero-input-max-weights",
        }
    }

    /// The input's value.
    pub(crate) fn input(self, elem: ElemType) -> i64 {
        let (lo, hi) = floats::int_range(elem);
        match self {
            IntConvSet::MaxSmall | IntConvSet::MaxZero => hi,
            IntConvSet::LowestSmall => lo,
            IntConvSet::ZeroMax => 0,
        }
    }

    /// One weight value (small ones drawn from -2..=2).
    pub(crate) fn weight(self, elem: ElemType, rng: &mut SplitMix64) -> i64 {
        match self {
            IntConvSet::MaxSmall | IntConvSet::LowestSmall => rng.range_i64(-2, 2),
            IntConvSet::MaxZero => 0,
            IntConvSet::ZeroMax => floats::int_range(elem).1,
        }
    }
}

/// One special floating-point value of the conformance generator's tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Special {
    /// ±0.
    Zero(bool),
    /// ±infinity.
    Inf(bool),
    /// NaN.
    NaN,
    /// ±the smallest positive normal.
    MinNormal(bool),
    /// ±the largest finite value.
    Max(bool),
    /// ±the smallest subnormal.
    MinSubnormal(bool),
    /// ±1.
    One(bool),
    /// ± a random value in `[lo, hi]` (magnitudes).
    Random(bool, f64, f64),
}

impl Special {
    /// The value in `elem` (infinities become the largest finite value in a
    /// type without them, NaN is NaN).
    pub(crate) fn value(self, elem: ElemType, rng: &mut SplitMix64) -> f64 {
        let sign = |neg: bool, v: f64| if neg { -v } else { v };
        match self {
            Special::Zero(n) => sign(n, 0.0),
            Special::Inf(n) => sign(n, if floats::has_inf(elem) { f64::INFINITY } else { floats::max_finite(elem) }),
            Special::NaN => f64::NAN,
            Special::MinNormal(n) => sign(n, floats::min_normal(elem)),
            Special::Max(n) => sign(n, floats::max_finite(elem)),
            Special::MinSubnormal(n) => sign(n, floats::min_subnormal(elem)),
            Special::One(n) => sign(n, 1.0),
            Special::Random(n, lo, hi) => {
                let hi = hi.min(floats::max_finite(elem));
                let lo = lo.min(hi);
                sign(n, lo + (hi - lo) * rng.unit())
            }
        }
    }
}

/// The operand pairs of the conformance generator's FP special tests for a
/// binary element-wise operator (ADD, SUB, MUL, MAXIMUM, MINIMUM and the
/// comparisons), or `None` for an operator without a table.
pub(crate) fn special_pairs(op: TosaOp, elem: ElemType) -> Option<Vec<(Special, Special)>> {
    use Special::*;
    let max = floats::max_finite(elem);
    // At least an ULP of the largest value, so that adding it to the
    // largest value overflows (the generator's RndFloat(ULPMax, Max)).
    let ulp = ulp_at_max(elem);
    let near_max = Random(false, ulp, max);
    let any = Random(false, 1.0, 10.0);
    let pairs = match op {
        TosaOp::Add => vec![
            (near_max, Max(false)),
            (Max(true), Random(true, ulp, max)),
            (Inf(false), Inf(true)),
            (Inf(false), Inf(false)),
            (Inf(true), Inf(true)),
            (Inf(false), any),
            (any, Inf(true)),
            (NaN, any),
            (any, NaN),
        ],
        TosaOp::Sub => vec![
            (Max(false), Random(true, ulp, max)),
            (Max(true), near_max),
            (Inf(false), Inf(false)),
            (Inf(true), Inf(true)),
            (Inf(false), Inf(true)),
            (Inf(true), Inf(false)),
            (Inf(false), any),
            (any, Inf(true)),
            (NaN, any),
            (any, NaN),
        ],
        TosaOp::Mul => vec![
            (Max(false), Random(false, 2.0, max)),
            (Max(true), Random(true, 2.0, max)),
            (Max(true), Random(false, 2.0, 10.0)),
            (Inf(false), Zero(false)),
            (Inf(true), Zero(false)),
            (Inf(false), Zero(true)),
            (Inf(true), Zero(true)),
            (Inf(false), Inf(false)),
            (Inf(false), Inf(true)),
            (NaN, any),
            (any, NaN),
        ],
        TosaOp::Maximum | TosaOp::Minimum => vec![
            (Zero(false), Zero(true)),
            (Inf(false), Inf(true)),
            (MinNormal(false), MinNormal(true)),
            (Max(false), Max(true)),
            (any, NaN),
            (NaN, Random(true, 1.0, 10.0)),
        ],
        TosaOp::Equal | TosaOp::Greater | TosaOp::GreaterEqual => vec![
            (Inf(false), Inf(false)),
            (Inf(true), Inf(true)),
            (Inf(false), Inf(true)),
            (Zero(true), Zero(false)),
            (Zero(false), Zero(true)),
            (NaN, any),
            (any, NaN),
            (NaN, Inf(false)),
            (NaN, NaN),
        ],
        _ => return None,
    };
    Some(pairs)
}

/// The spacing of `elem`'s values just below its largest finite value.
fn ulp_at_max(elem: ElemType) -> f64 {
    let bits = floats::encode(elem, floats::max_finite(elem));
    floats::max_finite(elem) - floats::decode(elem, bits.saturating_sub(1))
}

/// The values of the conformance generator's default FP special set (for a
/// unary operator or a single operand): ±0, ±inf, ±smallest normal,
/// ±largest, ±smallest subnormal, ±1, NaN.
pub(crate) fn special_singles() -> [Special; 13] {
    use Special::*;
    [
        Zero(false),
        Zero(true),
        Inf(false),
        Inf(true),
        MinNormal(false),
        MinNormal(true),
        Max(false),
        Max(true),
        MinSubnormal(false),
        MinSubnormal(true),
        One(false),
        One(true),
        NaN,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(set: DotSet, role: DotRole, ks: u64) -> Vec<f64> {
        let mut rng = SplitMix64::new(7);
        let plan = DotPlan { set, shared: 42, inputs_too: true, bound: 1000.0 };
        dot_values(&plan, role, ks, 64, |i| i as u64 % ks, &mut rng)
    }

    #[test]
    fn zero_products_pair_a_zero_with_every_factor() {
        let x = draw(DotSet::ZeroProducts, DotRole::Input, 16);
        let w = draw(DotSet::ZeroProducts, DotRole::Weight, 16);
        assert!(x.iter().zip(&w).all(|(a, b)| a * b == 0.0));
        assert!(x.iter().any(|&v| v != 0.0) && w.iter().any(|&v| v != 0.0));
    }

    #[test]
    fn accumulation_sets_lead_with_the_large_term() {
        let x = draw(DotSet::SmallOntoLarge, DotRole::Input, 16);
        assert_eq!(x[0], 1.0);
        assert!(x[1..16].iter().all(|v| v.abs() <= 0.25));
        let y = draw(DotSet::VaryingOntoLarge, DotRole::Weight, 16);
        assert_eq!(y[16], 16.0);
    }

    #[test]
    fn large_sets_stay_under_the_bound() {
        let ks = 9;
        for set in [DotSet::LargeExponents, DotSet::SignedLarge, DotSet::MixedZeros] {
            let x = draw(set, DotRole::Input, ks);
            let w = draw(set, DotRole::Weight, ks);
            let b = draw(set, DotRole::Bias, ks);
            for start in (0..54).step_by(ks as usize) {
                let sum: f64 = (start..start + ks as usize).map(|i| (x[i] * w[i]).abs()).sum::<f64>() + b[start].abs();
                assert!(sum <= 1000.0 * 1000.0, "{set:?}: {sum}");
            }
        }
        let l = draw(DotSet::LargeExponents, DotRole::Input, ks);
        assert!(l.iter().all(|v| *v >= 0.5 * 1000.0 / 10f64.sqrt() && *v <= 1000.0 / 10f64.sqrt()));
    }

    #[test]
    fn bounds_keep_squares_finite_in_the_output() {
        // fp16 accumulators: the specification's 255.875, just under sqrt(65504).
        let b = dot_bound(ElemType::Fp16, ElemType::Fp16, ElemType::Fp16);
        assert!(b <= 255.875 && b > 254.0 && b * b < 65504.0, "{b}");
        // An fp32 accumulator written as fp16: 65504 would overflow the output.
        assert!(dot_bound(ElemType::Fp16, ElemType::Fp32, ElemType::Fp16).powi(2) < 65504.0);
        let b = dot_bound(ElemType::Fp32, ElemType::Fp32, ElemType::Fp32);
        assert!(b * b <= f64::from(f32::MAX));
    }

    #[test]
    fn convolution_indices_follow_the_kernel() {
        // [1, 4, 4, 2] input, 2x2 kernel: (y%2*2 + x%2)*2 + c.
        assert_eq!(conv_input_k(0, &[1, 4, 4, 2], 2, 2), 0);
        assert_eq!(conv_input_k(1, &[1, 4, 4, 2], 2, 2), 1);
        assert_eq!(conv_input_k(2, &[1, 4, 4, 2], 2, 2), 2);
        assert_eq!(conv_input_k(4, &[1, 4, 4, 2], 2, 2), 0);
        assert_eq!(conv_input_k(8, &[1, 4, 4, 2], 2, 2), 4);
        assert_eq!(conv_weight_k(5, &[3, 2, 2, 2]), 5);
        assert_eq!(conv_weight_k(8, &[3, 2, 2, 2]), 0);
        assert_eq!(depthwise_weight_k(7, &[2, 2, 2, 2]), 1);
        assert_eq!(matmul_b_k(5, &[1, 3, 2]), 2);
    }

    #[test]
    fn special_tables_hold_their_values() {
        let mut rng = SplitMix64::new(1);
        let pairs = special_pairs(TosaOp::Add, ElemType::Fp32).unwrap_or_default();
        let (a, b) = pairs[0];
        let sum = a.value(ElemType::Fp32, &mut rng) + b.value(ElemType::Fp32, &mut rng);
        assert!((sum as f32).is_infinite(), "{sum}");
        assert!(special_pairs(TosaOp::Conv2d, ElemType::Fp32).is_none());
        assert!(Special::Inf(true).value(ElemType::Fp8E4M3, &mut rng) == -448.0);
    }
}

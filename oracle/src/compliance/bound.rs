//! The per-element bound check `check_fp_bnd` (§5.2) and the bound formulas
//! built on it.

use super::format::{pow2, FpFormat};

/// The outcome of checking one element against an error interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BoundCheck {
    /// Within the interval (or exempt, e.g. both bounds infinite).
    Pass {
        /// `test − reference` (0 when exempt or both NaN).
        difference: f64,
    },
    /// Outside the interval.
    Fail {
        /// `test − reference`; NaN when the NaN-ness differs.
        difference: f64,
        /// Why, in words.
        why: &'static str,
    },
}

impl BoundCheck {
    /// Whether the element passed.
    pub fn passed(&self) -> bool {
        matches!(self, BoundCheck::Pass { .. })
    }

    /// The signed difference `test − reference`.
    pub fn difference(&self) -> f64 {
        match *self {
            BoundCheck::Pass { difference } | BoundCheck::Fail { difference, .. } => difference,
        }
    }
}

/// `check_fp_bnd` with separate lower and upper allowances: passes when
/// `|ref| − low ≤ test·sign(ref) ≤ |ref| + high`, with the NaN, overflow,
/// flush-to-zero and fp8e4m3-NaN-as-overflow rules of §5.2.
pub fn check_float_bound(format: &FpFormat, test: f64, reference: f64, low: f64, high: f64) -> BoundCheck {
    if reference.is_nan() {
        return if test.is_nan() {
            BoundCheck::Pass { difference: 0.0 }
        } else {
            BoundCheck::Fail { difference: f64::NAN, why: "the reference is NaN but the result is not" }
        };
    }
    if low.is_nan() || high.is_nan() || low < 0.0 || high < 0.0 {
        return BoundCheck::Fail { difference: test - reference, why: "the error bound is NaN or negative" };
    }
    if low.is_infinite() && high.is_infinite() {
        return BoundCheck::Pass { difference: 0.0 };
    }
    // Work on the magnitude of the reference; the test value follows its sign.
    let (reference, test) = if reference < 0.0 { (-reference, -test) } else { (reference, test) };
    let mut max = reference + high;
    let mut min = reference - low;
    if max > format.normal_max {
        max = f64::INFINITY;
    }
    if min > format.normal_max {
        min = f64::INFINITY;
    } else if min < -format.normal_max {
        min = f64::NEG_INFINITY;
    }
    if !format.subnormals_required && min < format.normal_min() && test == 0.0 {
        return BoundCheck::Pass { difference: test - reference };
    }
    if test.is_nan() {
        if !format.has_inf && max == f64::INFINITY {
            return BoundCheck::Pass { difference: 0.0 };
        }
        return BoundCheck::Fail { difference: f64::NAN, why: "the result is NaN but the reference is not" };
    }
    let difference = test - reference;
    if min <= test && test <= max {
        BoundCheck::Pass { difference }
    } else {
        BoundCheck::Fail { difference, why: "outside the error bound" }
    }
}

/// Parameters of the ABS_ERROR bound (the `abs_error_info` of the reference
/// model's compliance configuration).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AbsErrorParams {
    /// `lower`: the bound's magnitude is at least `lower / bound_value`.
    pub lower_bound: f64,
    /// Added to the per-element bound value.
    pub base_bound: f64,
    /// The per-element bound value is the magnitude to scale by (SIN, COS: the
    /// input), not the bound value; the reference is then not used for scale.
    pub bound_as_magnitude: bool,
    /// `div`: the bound uses `2^-(normal_frac / div)` (integer division).
    pub normal_divisor: f64,
    /// A floor for the final bound (SIN: `π · normal_min`); 0 for none.
    pub max_compare: f64,
}

impl Default for AbsErrorParams {
    fn default() -> Self {
        AbsErrorParams {
            lower_bound: 0.0,
            base_bound: 0.0,
            bound_as_magnitude: false,
            normal_divisor: 1.0,
            max_compare: 0.0,
        }
    }
}

/// `calcAbsErrorBound` of §5.2 with the reference model's parameterisation:
/// the allowed absolute error for one element, given its fp64 reference and
/// the bound value computed for it (see [`super::bounds`]).
pub fn abs_error_bound(format: &FpFormat, reference: f64, bound_value: f64, p: &AbsErrorParams) -> f64 {
    let (magnitude, mut bval) = if p.bound_as_magnitude { (bound_value, 0.0) } else { (reference, bound_value) };
    bval += p.base_bound;
    let mut err = 0.0;
    if bval.is_finite() || magnitude.abs() != 0.0 {
        let mut v = magnitude.abs().max(format.normal_min());
        if p.lower_bound > 0.0 {
            v = v.max(p.lower_bound / bval);
        }
        // The exponent is truncated toward zero, as TOSA's integer division is.
        let exponent = (-f64::from(format.normal_frac) / p.normal_divisor).trunc() as i32;
        err = pow2(exponent) * v * bval;
    }
    if p.max_compare > 0.0 {
        err.max(p.max_compare)
    } else {
        err
    }
}

/// The REDUCE_PRODUCT bound: `max(|ref|, normal_min) · ((1 + 2^-(normal_frac+1))^n − 1)`.
pub fn reduce_product_bound(format: &FpFormat, reference: f64, n: u64) -> f64 {
    let magnitude = reference.abs().max(format.normal_min());
    let step = 1.0 + pow2(-format.normal_frac - 1);
    let n = i32::try_from(n).unwrap_or(i32::MAX);
    magnitude * (step.powi(n) - 1.0)
}

/// The RESIZE bound of §4: `max(calcAbsErrorBound(max|input|, ulp_bound, 0, 1), scale · max|input|)`.
pub fn relative_bound(format: &FpFormat, max_abs_input: f64, scale: f64, ulp_bound: f64) -> f64 {
    let ulp_part = abs_error_bound(format, max_abs_input, ulp_bound, &AbsErrorParams::default());
    ulp_part.max(scale * max_abs_input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_ir::elem::ElemType;

    fn fp32() -> FpFormat {
        FpFormat::of(ElemType::Fp32).expect("fp32")
    }

    #[test]
    fn nan_must_match_nan() {
        let f = fp32();
        assert!(check_float_bound(&f, f64::NAN, f64::NAN, 0.0, 0.0).passed());
        assert!(!check_float_bound(&f, 1.0, f64::NAN, 1.0, 1.0).passed());
        assert!(!check_float_bound(&f, f64::NAN, 1.0, 1.0, 1.0).passed());
    }

    #[test]
    fn interval_edges_are_inclusive() {
        let f = fp32();
        assert!(check_float_bound(&f, 1.5, 1.0, 0.0, 0.5).passed());
        assert!(!check_float_bound(&f, 1.5 + 1e-12, 1.0, 0.0, 0.5).passed());
        assert!(check_float_bound(&f, 0.75, 1.0, 0.25, 0.0).passed());
        assert!(!check_float_bound(&f, 0.75 - 1e-12, 1.0, 0.25, 0.0).passed());
        // A negative reference mirrors the interval.
        assert!(check_float_bound(&f, -0.75, -1.0, 0.25, 0.0).passed());
        assert!(!check_float_bound(&f, -1.25, -1.0, 0.25, 0.0).passed());
    }

    #[test]
    fn flush_to_zero_only_below_normal_min_and_not_for_fp8() {
        let f = fp32();
        let tiny = 1e-39;
        assert!(check_float_bound(&f, 0.0, tiny, 0.0, 0.0).passed());
        assert!(check_float_bound(&f, -0.0, tiny, 0.0, 0.0).passed());
        assert!(!check_float_bound(&f, 0.0, 1e-37, 0.0, 0.0).passed());
        let e5 = FpFormat::of(ElemType::Fp8E5M2).expect("fp8");
        assert!(!check_float_bound(&e5, 0.0, pow2(-16), 0.0, 0.0).passed());
    }

    #[test]
    fn fp8e4m3_nan_is_accepted_as_overflow() {
        let e4 = FpFormat::of(ElemType::Fp8E4M3).expect("fp8");
        assert!(check_float_bound(&e4, f64::NAN, 448.0, 0.0, 1.0).passed());
        assert!(!check_float_bound(&e4, f64::NAN, 440.0, 0.0, 1.0).passed());
    }

    #[test]
    fn abs_error_bound_formula() {
        let f = fp32();
        // EXP fp32 at x = 1: err_base 3, bound value 2|x| = 2 → (3+2)·e·2^-23.
        let p = AbsErrorParams { base_bound: 3.0, ..AbsErrorParams::default() };
        let e = std::f64::consts::E;
        assert_eq!(abs_error_bound(&f, e, 2.0, &p), 5.0 * e * pow2(-23));
        // COS: magnitude 1+|x| = 2, base 1, div 2 → 2^-11·2·1.
        let cos = AbsErrorParams { base_bound: 1.0, bound_as_magnitude: true, normal_divisor: 2.0, ..p };
        assert_eq!(abs_error_bound(&f, 0.3, 2.0, &cos), pow2(-11) * 2.0);
        // LOG: lower 0.5 with bound value 5 lifts tiny magnitudes to 0.1.
        let log = AbsErrorParams { lower_bound: 0.5, ..AbsErrorParams::default() };
        assert_eq!(abs_error_bound(&f, 1e-9, 5.0, &log), pow2(-23) * 0.1 * 5.0);
        // max_compare floors the result.
        let sin = AbsErrorParams { max_compare: 1.0, ..AbsErrorParams::default() };
        assert_eq!(abs_error_bound(&f, 1e-3, 1.0, &sin), 1.0);
    }

    #[test]
    fn product_and_relative_bounds() {
        let f = fp32();
        let b = reduce_product_bound(&f, 8.0, 2);
        let step = 1.0 + pow2(-24);
        assert_eq!(b, 8.0 * (step * step - 1.0));
        assert_eq!(relative_bound(&f, 10.0, 0.006, 20.0), 0.06);
        let h = FpFormat::of(ElemType::Fp16).expect("fp16");
        assert_eq!(relative_bound(&h, 10.0, 0.006, 20.0), 10.0 * 20.0 * pow2(-10));
    }
}

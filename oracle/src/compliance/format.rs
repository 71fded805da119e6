//! Precision facts of the floating-point element types (§5.2 of the
//! reference) and exact rounding of `f64` values into them.

use spvgraph_ir::elem::ElemType;

/// What the compliance rules need to know about a floating-point format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FpFormat {
    /// The element type.
    pub elem: ElemType,
    /// `normal_frac`: explicit mantissa bits.
    pub normal_frac: i32,
    /// Exponent of `normal_min` (`normal_min = 2^min_exp`).
    pub min_exp: i32,
    /// `normal_max`: the largest finite value.
    pub normal_max: f64,
    /// Whether the format has infinities (fp8e4m3 has none: NaN is its overflow).
    pub has_inf: bool,
    /// Whether subnormal results must be kept (fp8); bf16/fp16/fp32 may flush them to zero.
    pub subnormals_required: bool,
}

impl FpFormat {
    /// The format of a floating-point element type; `None` for integers and bool.
    pub fn of(elem: ElemType) -> Option<FpFormat> {
        let (normal_frac, min_exp, normal_max, has_inf, subnormals_required) = match elem {
            ElemType::Fp32 => (23, -126, pow2(128) - pow2(104), true, false),
            ElemType::Bf16 => (7, -126, pow2(128) - pow2(120), true, false),
            ElemType::Fp16 => (10, -14, 65504.0, true, false),
            ElemType::Fp8E4M3 => (3, -6, 448.0, false, true),
            ElemType::Fp8E5M2 => (2, -14, 57344.0, true, true),
            _ => return None,
        };
        Some(FpFormat { elem, normal_frac, min_exp, normal_max, has_inf, subnormals_required })
    }

    /// `normal_min`: the smallest positive normal value.
    pub fn normal_min(&self) -> f64 {
        pow2(self.min_exp)
    }

    /// `ulp(ref)` of §5.2: `max(2^floor(log2|ref|), normal_min) · 2^-normal_frac`
    /// for a finite non-zero `reference`, else 0.
    pub fn ulp(&self, reference: f64) -> f64 {
        if !reference.is_finite() || reference == 0.0 {
            return 0.0;
        }
        let e = floor_log2(reference.abs()).max(self.min_exp);
        pow2(e - self.normal_frac)
    }

    /// Rounds `x` to the nearest value of this format (ties to even), keeping
    /// subnormals; values beyond the format's range become ±infinity, or NaN
    /// for fp8e4m3, whose overflow encoding is NaN.
    pub fn round(&self, x: f64) -> f64 {
        if x.is_nan() || x == 0.0 {
            return x;
        }
        if x.is_infinite() {
            return if self.has_inf { x } else { f64::NAN };
        }
        let e = floor_log2(x.abs()).max(self.min_exp);
        let quantum = pow2(e - self.normal_frac);
        // Dividing by a power of two is exact here (the quotient is far from
        // the f64 subnormal range), so one rounding step gives the answer.
        let r = (x / quantum).round_ties_even() * quantum;
        if r.abs() > self.normal_max {
            if self.has_inf {
                f64::INFINITY.copysign(x)
            } else {
                f64::NAN
            }
        } else {
            r
        }
    }

    /// Whether `x` overflows this format when rounded into it.
    pub fn overflows(&self, x: f64) -> bool {
        let r = self.round(x);
        r.is_infinite() || (r.is_nan() && !x.is_nan())
    }
}

/// `2^n` exactly, for any `n` whose result is a normal or subnormal `f64`
/// (0 below that, +inf above).
pub fn pow2(n: i32) -> f64 {
    if (-1022..=1023).contains(&n) {
        f64::from_bits(((n + 1023) as u64) << 52)
    } else if n > 1023 {
        f64::INFINITY
    } else if n >= -1074 {
        f64::from_bits(1u64 << (n + 1074))
    } else {
        0.0
    }
}

/// `floor(log2(v))` exactly, for a positive finite `v`.
pub fn floor_log2(v: f64) -> i32 {
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        let mantissa = bits & ((1u64 << 52) - 1);
        // Subnormal f64: value = mantissa · 2^-1074.
        -1074 + (63 - mantissa.leading_zeros() as i32)
    } else {
        exp - 1023
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(e: ElemType) -> FpFormat {
        FpFormat::of(e).expect("float type")
    }

    #[test]
    fn powers_and_logs_are_exact() {
        assert_eq!(pow2(0), 1.0);
        assert_eq!(pow2(-149), f64::from(f32::from_bits(1)));
        assert_eq!(pow2(-1074), f64::from_bits(1));
        assert_eq!(floor_log2(1.0), 0);
        assert_eq!(floor_log2(0.999_999_999_999), -1);
        assert_eq!(floor_log2(f64::from_bits(1)), -1074);
        assert_eq!(floor_log2(3.0), 1);
        assert_eq!(floor_log2(f64::MAX), 1023);
    }

    #[test]
    fn rounding_matches_native_conversions() {
        let f32f = fmt(ElemType::Fp32);
        let f16f = fmt(ElemType::Fp16);
        let bff = fmt(ElemType::Bf16);
        let samples = [1.0 / 3.0, 1e-40, 3.4e38, 3.5e38, 65519.9, 65520.0, -7.25e-6, 1e-8, 2.5, 0.1];
        for x in samples {
            assert_eq!(f32f.round(x), f64::from(x as f32), "fp32 {x}");
            assert_eq!(f16f.round(x), f64::from(half::f16::from_f64(x)), "fp16 {x}");
            assert_eq!(bff.round(x), f64::from(half::bf16::from_f64(x)), "bf16 {x}");
        }
    }

    #[test]
    fn fp8_limits() {
        let e4 = fmt(ElemType::Fp8E4M3);
        assert_eq!(e4.round(448.0), 448.0);
        assert_eq!(e4.round(463.9), 448.0);
        // 464 is the tie between 448 (even mantissa) and 480 (odd; the NaN code).
        assert_eq!(e4.round(464.0), 448.0);
        assert!(e4.round(464.5).is_nan(), "past the tie, e4m3 overflows to NaN");
        assert_eq!(e4.round(pow2(-9)), pow2(-9));
        assert_eq!(e4.round(pow2(-11)), 0.0);
        let e5 = fmt(ElemType::Fp8E5M2);
        assert_eq!(e5.round(57344.0), 57344.0);
        assert_eq!(e5.round(61440.0), f64::INFINITY);
        assert!(e5.overflows(-1e9));
        assert!(!e5.overflows(1.0));
    }

    #[test]
    fn ulp_follows_the_exponent_and_floors_at_normal_min() {
        let f = fmt(ElemType::Fp32);
        assert_eq!(f.ulp(1.0), pow2(-23));
        assert_eq!(f.ulp(1.999), pow2(-23));
        assert_eq!(f.ulp(-2.0), pow2(-22));
        assert_eq!(f.ulp(1e-45), pow2(-149));
        assert_eq!(f.ulp(0.0), 0.0);
        assert_eq!(f.ulp(f64::INFINITY), 0.0);
        assert_eq!(fmt(ElemType::Fp16).ulp(1000.0), 0.5);
    }
}

//! Element-type arithmetic facts: integer ranges, float limits, and encoding
//! `f64` values into each float format's bits (round to nearest).

use half::{bf16, f16};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::scalar::{float_bits_to_f64, fp8_e4m3_to_f64, fp8_e5m2_to_f64};
use std::sync::OnceLock;

/// The signed value range of an integer element type (i48 is ±2^47).
pub fn int_range(elem: ElemType) -> (i64, i64) {
    match elem {
        ElemType::Bool => (0, 1),
        ElemType::I8 => (i64::from(i8::MIN), i64::from(i8::MAX)),
        ElemType::I16 => (i64::from(i16::MIN), i64::from(i16::MAX)),
        ElemType::I32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
        ElemType::I48 => (-(1i64 << 47), (1i64 << 47) - 1),
        _ => (0, 0),
    }
}

/// Largest finite value of a float type.
pub fn max_finite(elem: ElemType) -> f64 {
    match elem {
        ElemType::Fp32 => f64::from(f32::MAX),
        ElemType::Fp16 => 65504.0,
        ElemType::Bf16 => f64::from(bf16::MAX),
        ElemType::Fp8E4M3 => 448.0,
        ElemType::Fp8E5M2 => 57344.0,
        _ => 0.0,
    }
}

/// Smallest positive normal value of a float type.
pub fn min_normal(elem: ElemType) -> f64 {
    match elem {
        ElemType::Fp32 => f64::from(f32::MIN_POSITIVE),
        ElemType::Fp16 => 2f64.powi(-14),
        ElemType::Bf16 => f64::from(bf16::MIN_POSITIVE),
        ElemType::Fp8E4M3 => 2f64.powi(-6),
        ElemType::Fp8E5M2 => 2f64.powi(-14),
        _ => 0.0,
    }
}

/// Smallest positive subnormal value of a float type.
pub fn min_subnormal(elem: ElemType) -> f64 {
    match elem {
        ElemType::Fp32 => 2f64.powi(-149),
        ElemType::Fp16 => 2f64.powi(-24),
        ElemType::Bf16 => 2f64.powi(-133),
        ElemType::Fp8E4M3 => 2f64.powi(-9),
        ElemType::Fp8E5M2 => 2f64.powi(-16),
        _ => 0.0,
    }
}

/// Whether the float type has infinities (fp8 E4M3 has none).
pub fn has_inf(elem: ElemType) -> bool {
    elem.is_float() && elem != ElemType::Fp8E4M3
}

/// Decodes float bits (0.0 for non-float types).
pub fn decode(elem: ElemType, bits: u64) -> f64 {
    float_bits_to_f64(elem, bits).unwrap_or(0.0)
}

/// The bits of the quiet NaN used for generated NaNs.
pub fn nan_bits(elem: ElemType) -> u64 {
    match elem {
        ElemType::Fp32 => 0x7fc0_0000,
        ElemType::Fp16 => 0x7e00,
        ElemType::Bf16 => 0x7fc0,
        ElemType::Fp8E4M3 => 0x7f,
        ElemType::Fp8E5M2 => 0x7e,
        _ => 0,
    }
}

/// The bits of the float nearest to `v` (ties to even), saturating finite
/// values beyond the largest finite value to it, keeping infinities where the
/// type has them, and mapping NaN to [`nan_bits`].
pub fn encode(elem: ElemType, v: f64) -> u64 {
    if v.is_nan() {
        return nan_bits(elem);
    }
    let max = max_finite(elem);
    // Finite overflow saturates; infinities saturate only where the type has none.
    let saturate = (v.is_infinite() && !has_inf(elem)) || (v.is_finite() && v.abs() > max);
    let v = if saturate { v.signum() * max } else { v };
    match elem {
        ElemType::Fp32 => u64::from((v as f32).to_bits()),
        ElemType::Fp16 => u64::from(f16::from_f64(v).to_bits()),
        ElemType::Bf16 => u64::from(bf16::from_f64(v).to_bits()),
        ElemType::Fp8E4M3 => u64::from(nearest_fp8(fp8_table(ElemType::Fp8E4M3), v)),
        ElemType::Fp8E5M2 => u64::from(nearest_fp8(fp8_table(ElemType::Fp8E5M2), v)),
        _ => 0,
    }
}

/// Rounds `v` to the nearest value of the type (see [`encode`]).
pub fn round(elem: ElemType, v: f64) -> f64 {
    decode(elem, encode(elem, v))
}

/// Finite non-negative fp8 values with their codes, sorted by value.
type Fp8Table = Vec<(f64, u8)>;

/// The finite, non-negative fp8 values of a format with their codes, sorted by value.
fn fp8_table(elem: ElemType) -> &'static [(f64, u8)] {
    static E4M3: OnceLock<Fp8Table> = OnceLock::new();
    static E5M2: OnceLock<Fp8Table> = OnceLock::new();
    let (cell, decode): (&OnceLock<Fp8Table>, fn(u8) -> f64) = match elem {
        ElemType::Fp8E5M2 => (&E5M2, fp8_e5m2_to_f64),
        _ => (&E4M3, fp8_e4m3_to_f64),
    };
    cell.get_or_init(|| {
        let mut t: Vec<(f64, u8)> = (0u8..0x80).map(|b| (decode(b), b)).filter(|(v, _)| v.is_finite()).collect();
        t.sort_by(|a, b| a.0.total_cmp(&b.0));
        t
    })
}

fn nearest_fp8(table: &[(f64, u8)], v: f64) -> u8 {
    let sign = if v.is_sign_negative() { 0x80 } else { 0 };
    let a = v.abs();
    if a.is_infinite() {
        // Only E5M2 keeps infinities (E4M3 was saturated by the caller).
        return sign | 0x7c;
    }
    let i = table.partition_point(|(x, _)| *x < a);
    let code = match (i.checked_sub(1).and_then(|j| table.get(j)), table.get(i)) {
        (Some(&(lo, lc)), Some(&(hi, hc))) => {
            let (dl, dh) = (a - lo, hi - a);
            if dl < dh || (dl == dh && lc % 2 == 0) {
                lc
            } else {
                hc
            }
        }
        (None, Some(&(_, c))) | (Some(&(_, c)), None) => c,
        (None, None) => 0,
    };
    sign | code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_round_trips_representable_values() {
        for elem in [ElemType::Fp32, ElemType::Fp16, ElemType::Bf16, ElemType::Fp8E4M3, ElemType::Fp8E5M2] {
            for v in [0.0, 1.0, -1.5, 2.0, 0.25, max_finite(elem), -max_finite(elem), min_subnormal(elem)] {
                assert_eq!(round(elem, v), v, "{elem} {v}");
            }
            assert!(decode(elem, nan_bits(elem)).is_nan(), "{elem}");
            assert_eq!(round(elem, -0.0).to_bits(), (-0.0f64).to_bits(), "{elem}");
            assert_eq!(round(elem, 1e300), max_finite(elem), "{elem}");
        }
        assert_eq!(round(ElemType::Fp8E5M2, f64::INFINITY), f64::INFINITY);
        assert_eq!(round(ElemType::Fp8E4M3, f64::NEG_INFINITY), -448.0);
        assert_eq!(round(ElemType::Fp8E4M3, 1.06), 1.0);
        assert_eq!(round(ElemType::Fp8E4M3, 1.07), 1.125);
    }

    #[test]
    fn limits_are_consistent() {
        for elem in [ElemType::Fp32, ElemType::Fp16, ElemType::Bf16, ElemType::Fp8E4M3, ElemType::Fp8E5M2] {
            assert!(min_subnormal(elem) < min_normal(elem));
            assert!(min_normal(elem) < max_finite(elem));
            assert_eq!(round(elem, min_normal(elem)), min_normal(elem));
        }
        assert_eq!(int_range(ElemType::I48), (-(1 << 47), (1 << 47) - 1));
    }
}

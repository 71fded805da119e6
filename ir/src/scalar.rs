//! Bit-level decoding of the floating-point element encodings.

use crate::elem::ElemType;

/// Decodes the raw bits of a float element (low bits of `bits`) to `f64`
/// exactly; `None` for non-float element types.
pub fn float_bits_to_f64(elem: ElemType, bits: u64) -> Option<f64> {
    let v = match elem {
        ElemType::Fp32 => f64::from(f32::from_bits(bits as u32)),
        ElemType::Fp16 => f64::from(half::f16::from_bits(bits as u16)),
        ElemType::Bf16 => f64::from(half::bf16::from_bits(bits as u16)),
        ElemType::Fp8E4M3 => fp8_e4m3_to_f64(bits as u8),
        ElemType::Fp8E5M2 => fp8_e5m2_to_f64(bits as u8),
        _ => return None,
    };
    Some(v)
}

/// OCP OFP8 E4M3: bias 7, no infinities, NaN only at S.1111.111, max ±448.
pub fn fp8_e4m3_to_f64(b: u8) -> f64 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((b >> 3) & 0xf);
    let man = f64::from(b & 0x7);
    if exp == 0xf && (b & 0x7) == 0x7 {
        return f64::NAN;
    }
    if exp == 0 {
        sign * man / 8.0 * 2f64.powi(-6)
    } else {
        sign * (1.0 + man / 8.0) * 2f64.powi(exp - 7)
    }
}

/// OCP OFP8 E5M2: bias 15, IEEE-like (±inf at exponent 31 mantissa 0, NaN otherwise).
pub fn fp8_e5m2_to_f64(b: u8) -> f64 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((b >> 2) & 0x1f);
    let man = f64::from(b & 0x3);
    if exp == 0x1f {
        return if b & 0x3 == 0 { sign * f64::INFINITY } else { f64::NAN };
    }
    if exp == 0 {
        sign * man / 4.0 * 2f64.powi(-14)
    } else {
        sign * (1.0 + man / 4.0) * 2f64.powi(exp - 15)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp8_extremes_match_the_ocp_tables() {
        assert_eq!(fp8_e4m3_to_f64(0x7e), 448.0);
        assert!(fp8_e4m3_to_f64(0x7f).is_nan());
        assert_eq!(fp8_e4m3_to_f64(0x01), 2f64.powi(-9));
        assert_eq!(fp8_e4m3_to_f64(0x78), 256.0);
        assert_eq!(fp8_e5m2_to_f64(0x7b), 57344.0);
        assert_eq!(fp8_e5m2_to_f64(0x7c), f64::INFINITY);
        assert_eq!(fp8_e5m2_to_f64(0xfc), f64::NEG_INFINITY);
        assert!(fp8_e5m2_to_f64(0x7d).is_nan());
        assert_eq!(fp8_e5m2_to_f64(0x01), 2f64.powi(-16));
        assert_eq!(fp8_e4m3_to_f64(0x80), 0.0);
        assert!(fp8_e4m3_to_f64(0x80).is_sign_negative());
    }

    #[test]
    fn half_types_decode_exactly() {
        assert_eq!(float_bits_to_f64(ElemType::Fp16, 0x3c00), Some(1.0));
        assert_eq!(float_bits_to_f64(ElemType::Bf16, 0x3f80), Some(1.0));
        assert_eq!(float_bits_to_f64(ElemType::Fp16, 0x7bff), Some(65504.0));
        assert_eq!(float_bits_to_f64(ElemType::I8, 1), None);
    }
}

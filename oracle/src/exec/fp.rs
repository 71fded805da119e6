//! Floating-point element formats: exact decoding to `f64` and
//! round-to-nearest-even encoding from `f64`, for fp32, fp16, bf16 and the two
//! OCP fp8 formats.
//!
//! One generic encoder serves every format so that rounding, subnormals and
//! overflow behave the same way everywhere. It exists because `half`'s
//! `from_f64` drops the low 32 bits of the `f64` mantissa before rounding,
//! which breaks ties-to-even for values just above a tie (its `from_f32` is
//! correct and is used as the fast path for `f32` sources).
//!
//! Overflow follows TOSA CAST: IEEE-like formats (fp32, fp16, bf16, fp8e5m2)
//! round to ±infinity; fp8e4m3 has no infinity and uses the OCP
//! non-saturating mode, so an overflowing value becomes NaN.

use spvgraph_ir::elem::ElemType;

/// A binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FpFormat {
    /// Exponent field width in bits.
    pub exp_bits: u32,
    /// Stored mantissa (fraction) bits.
    pub man_bits: u32,
    /// Exponent bias.
    pub bias: i32,
    /// IEEE-like (all-ones exponent = inf/NaN) rather than OCP E4M3 (only
    /// `S.1111.111` is NaN, no infinity).
    pub ieee: bool,
}

impl FpFormat {
    /// IEEE binary32.
    pub const FP32: FpFormat = FpFormat { exp_bits: 8, man_bits: 23, bias: 127, ieee: true };
    /// IEEE binary16.
    pub const FP16: FpFormat = FpFormat { exp_bits: 5, man_bits: 10, bias: 15, ieee: true };
    /// bfloat16 (the top half of binary32).
    pub const BF16: FpFormat = FpFormat { exp_bits: 8, man_bits: 7, bias: 127, ieee: true };
    /// OCP OFP8 E4M3: bias 7, max ±448, no infinities, NaN = `S.1111.111`.
    pub const FP8E4M3: FpFormat = FpFormat { exp_bits: 4, man_bits: 3, bias: 7, ieee: false };
    /// OCP OFP8 E5M2: bias 15, IEEE-like.
    pub const FP8E5M2: FpFormat = FpFormat { exp_bits: 5, man_bits: 2, bias: 15, ieee: true };

    /// The format of a floating-point element type.
    pub fn of(elem: ElemType) -> Option<FpFormat> {
        match elem {
            ElemType::Fp32 => Some(FpFormat::FP32),
            ElemType::Fp16 => Some(FpFormat::FP16),
            ElemType::Bf16 => Some(FpFormat::BF16),
            ElemType::Fp8E4M3 => Some(FpFormat::FP8E4M3),
            ElemType::Fp8E5M2 => Some(FpFormat::FP8E5M2),
            _ => None,
        }
    }

    fn width(self) -> u32 {
        1 + self.exp_bits + self.man_bits
    }

    fn exp_all_ones(self) -> u64 {
        (1u64 << self.exp_bits) - 1
    }

    fn man_all_ones(self) -> u64 {
        (1u64 << self.man_bits) - 1
    }

    fn sign_bit(self) -> u64 {
        1u64 << (self.width() - 1)
    }

    /// The bits of a quiet NaN (positive sign).
    pub fn nan_bits(self) -> u64 {
        if self.ieee {
            (self.exp_all_ones() << self.man_bits) | (1u64 << (self.man_bits - 1))
        } else {
            (self.exp_all_ones() << self.man_bits) | self.man_all_ones()
        }
    }

    /// The bits of +infinity, if the format has one.
    pub fn inf_bits(self) -> Option<u64> {
        self.ieee.then(|| self.exp_all_ones() << self.man_bits)
    }

    /// The largest finite value.
    pub fn max_finite(self) -> f64 {
        let bits = if self.ieee {
            ((self.exp_all_ones() - 1) << self.man_bits) | self.man_all_ones()
        } else {
            (self.exp_all_ones() << self.man_bits) | (self.man_all_ones() - 1)
        };
        self.decode(bits)
    }

    /// The smallest positive normal value.
    pub fn min_normal(self) -> f64 {
        self.decode(1u64 << self.man_bits)
    }

    /// Decodes the low bits of `bits` exactly.
    pub fn decode(self, bits: u64) -> f64 {
        let sign = if bits & self.sign_bit() != 0 { -1.0 } else { 1.0 };
        let exp = (bits >> self.man_bits) & self.exp_all_ones();
        let man = bits & self.man_all_ones();
        if exp == self.exp_all_ones() {
            if self.ieee {
                return if man == 0 { sign * f64::INFINITY } else { f64::NAN };
            }
            if man == self.man_all_ones() {
                return f64::NAN;
            }
        }
        // Every value of these formats is exactly representable in f64 and the
        // scaling by a power of two is exact.
        let (significand, e) = if exp == 0 {
            (man as f64, 1 - self.bias - self.man_bits as i32)
        } else {
            ((man | (1u64 << self.man_bits)) as f64, exp as i32 - self.bias - self.man_bits as i32)
        };
        sign * significand * pow2(e)
    }

    /// Rounds `x` to this format (round to nearest, ties to even) and returns
    /// its bit pattern. NaN gives a quiet NaN with the sign of `x`; overflow
    /// gives ±infinity, or NaN for fp8e4m3 (OCP non-saturating mode).
    pub fn encode(self, x: f64) -> u64 {
        let sign = if x.is_sign_negative() { self.sign_bit() } else { 0 };
        if x.is_nan() {
            return sign | self.nan_bits();
        }
        if x.is_infinite() {
            return sign | self.inf_bits().unwrap_or(self.nan_bits());
        }
        if x == 0.0 {
            return sign;
        }
        let (m, e) = decompose(x.abs());
        // Binade of the value, clamped to the subnormal range of the target.
        let top = 63 - i64::from(m.leading_zeros()) + e;
        let emin = i64::from(1 - self.bias);
        let quantum = top.max(emin) - i64::from(self.man_bits);
        let mut n = round_shift(m, quantum - e);
        let mut quantum = quantum;
        if n == 1u64 << (self.man_bits + 1) {
            n >>= 1;
            quantum += 1;
        }
        if n < (1u64 << self.man_bits) {
            // Subnormal (or zero after rounding): exponent field 0.
            return sign | n;
        }
        let biased = quantum + i64::from(self.man_bits) + i64::from(self.bias);
        let man = n - (1u64 << self.man_bits);
        let max_exp = if self.ieee { self.exp_all_ones() as i64 - 1 } else { self.exp_all_ones() as i64 };
        let overflow = biased > max_exp || (!self.ieee && biased == max_exp && man == self.man_all_ones());
        if overflow {
            return sign | self.inf_bits().unwrap_or(self.nan_bits());
        }
        sign | ((biased as u64) << self.man_bits) | man
    }

    /// `x` rounded to this format, as an `f64`.
    pub fn round(self, x: f64) -> f64 {
        self.decode(self.encode(x))
    }
}

/// `2^e` for any exponent an `f64` computation here needs (subnormal results included).
fn pow2(e: i32) -> f64 {
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        // Split so each factor is a normal power of two; the product is exact.
        f64::from_bits(((e + 1023 + 64) as u64) << 52) * f64::from_bits((1023 - 64) << 52)
    }
}

/// `x = m * 2^e` with `m` an integer (x finite, non-zero, positive).
fn decompose(x: f64) -> (u64, i64) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    }
}

/// `m * 2^-shift` rounded to an integer, ties to even (`shift` may be negative).
fn round_shift(m: u64, shift: i64) -> u64 {
    if shift <= 0 {
        // Only reached when the value is an exact multiple of the quantum; the
        // result has at most man_bits + 1 significant bits, so this cannot overflow.
        return m << (-shift).min(63);
    }
    if shift > 64 {
        return 0;
    }
    let (q, r, half) =
        if shift == 64 { (0, m, 1u64 << 63) } else { (m >> shift, m & ((1u64 << shift) - 1), 1u64 << (shift - 1)) };
    if r > half || (r == half && q & 1 == 1) {
        q + 1
    } else {
        q
    }
}

/// Rounds `x` to the element type `elem` (a float type) and returns the bits.
pub fn encode_elem(elem: ElemType, x: f64) -> Option<u64> {
    FpFormat::of(elem).map(|f| f.encode(x))
}

/// Decodes the bits of a float element type exactly.
pub fn decode_elem(elem: ElemType, bits: u64) -> Option<f64> {
    FpFormat::of(elem).map(|f| f.decode(bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp16_ties_and_overflow() {
        let f = FpFormat::FP16;
        assert_eq!(f.encode(65504.0), 0x7bff);
        assert_eq!(f.encode(65519.99), 0x7bff);
        assert_eq!(f.encode(65520.0), 0x7c00);
        assert_eq!(f.encode(1.0 + 2f64.powi(-11)), 0x3c00);
        assert_eq!(f.encode(1.0 + 2f64.powi(-11) + 2f64.powi(-40)), 0x3c01);
        assert_eq!(f.encode(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        assert_eq!(f.encode(2f64.powi(-24)), 0x0001);
        assert_eq!(f.encode(2f64.powi(-25)), 0x0000);
        assert_eq!(f.encode(2f64.powi(-25) * 1.5), 0x0001);
        assert_eq!(f.encode(-0.0), 0x8000);
    }

    #[test]
    fn e4m3_overflows_to_nan() {
        let f = FpFormat::FP8E4M3;
        assert_eq!(f.encode(448.0), 0x7e);
        assert_eq!(f.encode(464.0), 0x7e);
        assert_eq!(f.encode(464.5), 0x7f);
        assert_eq!(f.encode(-1e9), 0xff);
        assert_eq!(f.encode(f64::INFINITY), 0x7f);
        assert_eq!(f.max_finite(), 448.0);
    }
}

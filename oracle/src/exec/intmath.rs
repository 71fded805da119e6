//! The bit-exact integer helpers of the TOSA pseudocode (§3 of the reference):
//! scaling, rounding shifts, saturation, table lookup, leading zeros.
//!
//! Every helper that the specification guards with a `REQUIRE` returns
//! `Err(Require)` instead of wrapping, so callers can report the execution as
//! unpredictable. Arithmetic is done in `i64`/`i128`, so nothing here can
//! overflow or panic for any argument.

use std::fmt;

/// A TOSA `REQUIRE` that failed: the result of the execution is unpredictable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Require {
    /// A signed addition left the range of its type.
    AddOverflow,
    /// A signed subtraction left the range of its type.
    SubOverflow,
    /// An accumulator (i32 or i48) overflowed.
    AccumulatorOverflow,
    /// A rounded MUL product does not fit i32.
    MulResultRange,
    /// MUL shift outside 0..=63, or non-zero for i8/i16 inputs.
    MulShift,
    /// A shift amount outside `0 ..= bits-1`.
    ShiftRange,
    /// Division by zero.
    DivideByZero,
    /// A quotient that does not fit i32 (`INT32_MIN / -1`).
    DivideOverflow,
    /// Negating or taking the absolute value of the type minimum in i32.
    NegateOverflow,
    /// A scale multiplier < 0.
    ScaleMultiplier,
    /// A scale shift outside 2..=62.
    ScaleShift,
    /// `apply_scale_32` input outside `[-2^(shift-1), 2^(shift-1))`.
    ScaleValueRange,
    /// `apply_scale_16` result outside i32.
    ScaleResultRange,
    /// TABLE i16: `next - base` outside i16.
    TableSlope,
    /// GATHER/SCATTER index outside `[0, K)`.
    IndexRange,
    /// SCATTER writes the same position twice.
    DuplicateIndex,
    /// CAST of a NaN to an integer type.
    CastNan,
    /// ARGMAX index does not fit i32.
    ArgmaxIndex,
    /// POW arguments outside its domain (x < 0, x = 0 with y <= 0, NaN or infinite).
    PowDomain,
    /// A level limit (§2.2) is exceeded.
    Level(LevelLimit),
}

pub use spvgraph_ir::tosa::LevelLimit;

impl Require {
    /// The condition the specification requires, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Require::AddOverflow => "the sum fits the signed type (apply_add_s)",
            Require::SubOverflow => "the difference fits the signed type (apply_sub_s)",
            Require::AccumulatorOverflow => "the accumulator does not overflow acc_t",
            Require::MulResultRange => "the rounded shifted product fits i32",
            Require::MulShift => "shift in 0..=63 for i32 inputs, 0 otherwise",
            Require::ShiftRange => "the shift amount is in 0..=bits-1",
            Require::DivideByZero => "the divisor is not zero",
            Require::DivideOverflow => "the quotient fits i32",
            Require::NegateOverflow => "the negated value fits the type",
            Require::ScaleMultiplier => "multiplier >= 0",
            Require::ScaleShift => "2 <= shift <= 62",
            Require::ScaleValueRange => "-(1 << (shift-1)) <= value < (1 << (shift-1))",
            Require::ScaleResultRange => "the scaled value fits i32",
            Require::TableSlope => "table[index+1] - table[index] fits i16",
            Require::IndexRange => "0 <= index < K",
            Require::DuplicateIndex => "no output position is written twice",
            Require::CastNan => "the input is not NaN",
            Require::ArgmaxIndex => "the index fits i32",
            Require::PowDomain => "x > 0 (or x == 0 with y > 0), neither operand NaN or infinite",
            Require::Level(LevelLimit::MaxRank) => "every rank is at most MAX_RANK (level limit)",
            Require::Level(LevelLimit::MaxKernel) => {
                "kernel sizes, pads and FFT sizes are at most MAX_KERNEL (level limit)"
            }
            Require::Level(LevelLimit::MaxStride) => "strides are at most MAX_STRIDE (level limit)",
            Require::Level(LevelLimit::MaxScale) => "scale_n / scale_d is at most MAX_SCALE (level limit)",
            Require::Level(LevelLimit::MaxLog2Size) => {
                "every tensor is smaller than 2^MAX_LOG2_SIZE bytes (level limit)"
            }
            Require::Level(LevelLimit::MaxTensorListSize) => {
                "at most MAX_TENSOR_LIST_SIZE tensors are concatenated (level limit)"
            }
        }
    }
}

impl fmt::Display for Require {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// Result of a helper that may hit a REQUIRE.
pub type Checked<T> = Result<T, Require>;

/// The range of a signed integer of `bits` bits (8, 16, 32 or 48).
pub fn signed_range(bits: u32) -> (i64, i64) {
    let bits = bits.clamp(1, 63);
    (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
}

/// The range of an unsigned integer of `bits` bits.
pub fn unsigned_range(bits: u32) -> (i64, i64) {
    (0, (1i64 << bits.clamp(1, 62)) - 1)
}

/// `apply_clip_s`: `min(max(v, lo), hi)`.
pub fn clip(v: i64, lo: i64, hi: i64) -> i64 {
    v.max(lo).min(hi)
}

/// Signed-extends the low `bits` bits of `v`.
pub fn sext(v: i64, bits: u32) -> i64 {
    let shift = 64 - bits.clamp(1, 64);
    (v << shift) >> shift
}

/// Zero-extends the low `bits` bits of `v`.
pub fn zext(v: i64, bits: u32) -> i64 {
    if bits >= 64 {
        v
    } else {
        v & ((1i64 << bits) - 1)
    }
}

/// `apply_add_s` in a type of `bits` bits: REQUIRE the sum fits.
pub fn add_s(a: i64, b: i64, bits: u32) -> Checked<i64> {
    let (lo, hi) = signed_range(bits);
    let r = i128::from(a) + i128::from(b);
    if r < i128::from(lo) || r > i128::from(hi) {
        Err(Require::AddOverflow)
    } else {
        Ok(r as i64)
    }
}

/// `apply_sub_s` in a type of `bits` bits: REQUIRE the difference fits.
pub fn sub_s(a: i64, b: i64, bits: u32) -> Checked<i64> {
    let (lo, hi) = signed_range(bits);
    let r = i128::from(a) - i128::from(b);
    if r < i128::from(lo) || r > i128::from(hi) {
        Err(Require::SubOverflow)
    } else {
        Ok(r as i64)
    }
}

/// MUL on i32 inputs: with `shift == 0` the low 32 bits of the 64-bit product
/// (wrapping, as the specification truncates); with `shift > 0` the product
/// rounded half up and shifted right, REQUIRE it fits i32.
pub fn mul_shift_i32(a: i32, b: i32, shift: i32) -> Checked<i32> {
    if !(0..=63).contains(&shift) {
        return Err(Require::MulShift);
    }
    let product = i64::from(a) * i64::from(b);
    if shift == 0 {
        return Ok(product as i32);
    }
    // i128: INT32_MIN^2 + 2^62 does not fit i64 when shift is 63.
    let rounded = (i128::from(product) + (1i128 << (shift - 1))) >> shift;
    i32::try_from(rounded).map_err(|_| Require::MulResultRange)
}

/// ARITHMETIC_RIGHT_SHIFT on a `bits`-bit value: `a >> b`, plus one when
/// `round` and the last bit shifted out is set. REQUIRE `0 <= b < bits`.
pub fn arithmetic_right_shift(a: i64, b: i64, round: bool, bits: u32) -> Checked<i64> {
    if b < 0 || b >= i64::from(bits) {
        return Err(Require::ShiftRange);
    }
    let mut r = a >> b;
    if round && b > 0 && (a >> (b - 1)) & 1 == 1 {
        r += 1;
    }
    Ok(r)
}

/// LOGICAL_LEFT_SHIFT: `a << b` keeping the low `bits` bits (sign-extended
/// back). REQUIRE `0 <= b < bits`.
pub fn logical_left_shift(a: i64, b: i64, bits: u32) -> Checked<i64> {
    if b < 0 || b >= i64::from(bits) {
        return Err(Require::ShiftRange);
    }
    Ok(sext(a.wrapping_shl(b as u32), bits))
}

/// LOGICAL_RIGHT_SHIFT: `a` read as unsigned of its width, shifted right
/// with zero fill (sign-extended back). REQUIRE `0 <= b < bits`.
pub fn logical_right_shift(a: i64, b: i64, bits: u32) -> Checked<i64> {
    if b < 0 || b >= i64::from(bits) {
        return Err(Require::ShiftRange);
    }
    Ok(sext(zext(a, bits) >> b, bits))
}

/// INTDIV on i32: truncating division. REQUIRE `b != 0` and the quotient fits.
pub fn intdiv(a: i64, b: i64) -> Checked<i64> {
    if b == 0 {
        return Err(Require::DivideByZero);
    }
    let q = i128::from(a) / i128::from(b);
    if q < i128::from(i32::MIN) || q > i128::from(i32::MAX) {
        return Err(Require::DivideOverflow);
    }
    Ok(q as i64)
}

/// `count_leading_zeros` of the 32-bit pattern (32 for zero, 0 for negatives).
pub fn clz32(a: i32) -> i32 {
    (a as u32).leading_zeros() as i32
}

/// `apply_scale_32(value, multiplier, shift, double_round)`.
pub fn apply_scale_32(value: i64, multiplier: i64, shift: i64, double_round: bool) -> Checked<i32> {
    if multiplier < 0 {
        return Err(Require::ScaleMultiplier);
    }
    if !(2..=62).contains(&shift) {
        return Err(Require::ScaleShift);
    }
    let half = 1i64 << (shift - 1);
    if value < -half || value >= half {
        return Err(Require::ScaleValueRange);
    }
    let mut round = i128::from(half);
    if double_round && shift > 31 {
        if value >= 0 {
            round += 1 << 30;
        } else {
            round -= 1 << 30;
        }
    }
    let result = (i128::from(value) * i128::from(multiplier) + round) >> shift;
    // The value-range REQUIRE bounds |result| below 2^31 for a 32-bit
    // multiplier; a wider multiplier (not a valid i32) is reported as a range failure.
    i32::try_from(result).map_err(|_| Require::ScaleResultRange)
}

/// `apply_scale_16(value48, multiplier16, shift)`.
pub fn apply_scale_16(value: i64, multiplier: i64, shift: i64) -> Checked<i32> {
    if multiplier < 0 {
        return Err(Require::ScaleMultiplier);
    }
    if !(2..=62).contains(&shift) {
        return Err(Require::ScaleShift);
    }
    let round = 1i128 << (shift - 1);
    let result = (i128::from(value) * i128::from(multiplier) + round) >> shift;
    i32::try_from(result).map_err(|_| Require::ScaleResultRange)
}

/// `reciprocal_scale(count)`: `(multiplier, shift)` with `multiplier * 2^-shift ≈ 1/count`.
/// `count` must be at least 1 (a pooling window always has one valid position).
pub fn reciprocal_scale(count: u32) -> (i64, i64) {
    let count = count.max(1);
    let k = 32 - i64::from((count - 1).leading_zeros());
    let numerator = ((1i64 << 30) + 1) << k;
    (numerator / i64::from(count), 30 + k)
}

/// TABLE on i8: `table[x + 128]` (`table` has 256 entries).
pub fn lookup_i8(table: &[i64], x: i64) -> Option<i64> {
    usize::try_from(x + 128).ok().and_then(|i| table.get(i)).copied()
}

/// TABLE on i16 (`apply_lookup_s`): interpolates the 513-entry table and
/// returns a 16.7 fixed-point i32. REQUIRE the slope fits i16.
pub fn lookup_i16(table: &[i64], x: i64) -> Checked<i64> {
    let x = clip(x, -32768, 32767);
    let index = ((x + 32768) >> 7) as usize;
    let fraction = x & 0x7f;
    let (Some(&base), Some(&next)) = (table.get(index), table.get(index + 1)) else {
        return Err(Require::IndexRange);
    };
    let slope = next - base;
    if !(-32768..=32767).contains(&slope) {
        return Err(Require::TableSlope);
    }
    Ok(base * 128 + slope * fraction)
}

/// Rounds to the nearest integer, ties to even, then saturates to `[lo, hi]`
/// (CAST float→int; ±infinity saturate). NaN is a REQUIRE failure.
pub fn float_to_int(x: f64, lo: i64, hi: i64) -> Checked<i64> {
    if x.is_nan() {
        return Err(Require::CastNan);
    }
    let r = x.round_ties_even();
    if r <= lo as f64 {
        Ok(lo)
    } else if r >= hi as f64 {
        Ok(hi)
    } else {
        Ok(r as i64)
    }
}

//! Hand-computed edge cases of the integer helpers of the TOSA pseudocode:
//! INT32_MIN, shifts of 0/31/63, rounding ties, saturation bounds.

use spvgraph_oracle::exec::intmath::*;

const MIN: i32 = i32::MIN;
const MAX: i32 = i32::MAX;

#[test]
fn apply_scale_32_identity_ties_and_ranges() {
    // Scale 1.0 is (1 << 30, 30): the identity on its whole value range.
    for v in [-(1i64 << 29), -1, 0, 1, (1 << 29) - 1] {
        assert_eq!(apply_scale_32(v, 1 << 30, 30, false), Ok(v as i32));
    }
    // Scale 0.5: ties round half up (+0.5 -> 1, -0.5 -> 0, 1.5 -> 2, -1.5 -> -1).
    assert_eq!(apply_scale_32(1, 1 << 30, 31, false), Ok(1));
    assert_eq!(apply_scale_32(-1, 1 << 30, 31, false), Ok(0));
    assert_eq!(apply_scale_32(3, 1 << 30, 31, false), Ok(2));
    assert_eq!(apply_scale_32(-3, 1 << 30, 31, false), Ok(-1));
    // INT32_MIN with the largest multiplier at shift 32:
    // (-2^31 * (2^31 - 1) + 2^31) >> 32 = -2^30 + 1.
    assert_eq!(apply_scale_32(i64::from(MIN), i64::from(MAX), 32, false), Ok(-(1 << 30) + 1));
    assert_eq!(apply_scale_32(i64::from(MAX), i64::from(MAX), 32, false), Ok((1 << 30) - 1));
    // INT32_MIN is outside [-2^29, 2^29) at shift 30.
    assert_eq!(apply_scale_32(i64::from(MIN), 1 << 30, 30, false), Err(Require::ScaleValueRange));
    assert_eq!(apply_scale_32(1 << 29, 1 << 30, 30, false), Err(Require::ScaleValueRange));
    // Shift bounds 2..=62 and a non-negative multiplier.
    assert_eq!(apply_scale_32(0, 1, 1, false), Err(Require::ScaleShift));
    assert_eq!(apply_scale_32(0, 1, 63, false), Err(Require::ScaleShift));
    assert_eq!(apply_scale_32(1, 3, 2, false), Ok(1)); // (3 + 2) >> 2
    assert_eq!(apply_scale_32(5, 1, 2, false), Err(Require::ScaleValueRange)); // 5 is outside [-2, 2)
                                                                               // -2^31 (2^31 - 1) / 2^62 = -1 + 2^-31, which rounds to -1.
    assert_eq!(apply_scale_32(i64::from(MIN), i64::from(MAX), 62, false), Ok(-1));
    assert_eq!(apply_scale_32(0, -1, 30, false), Err(Require::ScaleMultiplier));
}

#[test]
fn apply_scale_32_double_round() {
    // Positive: x = 2^30 at shift 32 is 0.25 of the unit; single rounding
    // gives 0, the legacy double rounding adds 2^30 and gives 1.
    assert_eq!(apply_scale_32(1, 1 << 30, 32, false), Ok(0));
    assert_eq!(apply_scale_32(1, 1 << 30, 32, true), Ok(1));
    // Negative: x = -3·2^29 -> single (2^31 - 3·2^29) >> 32 = 0, double subtracts 2^30 -> -1.
    assert_eq!(apply_scale_32(-1, 3 << 29, 32, false), Ok(0));
    assert_eq!(apply_scale_32(-1, 3 << 29, 32, true), Ok(-1));
    // Shift <= 31: double rounding changes nothing.
    assert_eq!(apply_scale_32(1, 1 << 30, 31, true), Ok(1));
    assert_eq!(apply_scale_32(-1, 1 << 30, 31, true), Ok(0));
}

#[test]
fn apply_scale_16_edges() {
    // (2^47 - 1)(2^15 - 1) + 2^61 lies in [2^62, 2^63): >> 62 is 1.
    assert_eq!(apply_scale_16((1 << 47) - 1, (1 << 15) - 1, 62), Ok(1));
    // -2^47 >> 16 is exactly INT32_MIN; >> 15 does not fit i32.
    assert_eq!(apply_scale_16(-(1 << 47), 1, 16), Ok(MIN));
    assert_eq!(apply_scale_16(-(1 << 47), 1, 15), Err(Require::ScaleResultRange));
    assert_eq!(apply_scale_16((1 << 47) - 1, (1 << 15) - 1, 2), Err(Require::ScaleResultRange));
    // Scale 1.0 as (1 << 14, 14); ties half up.
    assert_eq!(apply_scale_16(-7, 1 << 14, 14), Ok(-7));
    assert_eq!(apply_scale_16(-1, 1 << 14, 15), Ok(0));
    assert_eq!(apply_scale_16(1, 1 << 14, 15), Ok(1));
    assert_eq!(apply_scale_16(1, -1, 15), Err(Require::ScaleMultiplier));
    assert_eq!(apply_scale_16(1, 1, 63), Err(Require::ScaleShift));
}

#[test]
fn reciprocal_scale_examples() {
    assert_eq!(reciprocal_scale(1), ((1 << 30) + 1, 30));
    assert_eq!(reciprocal_scale(2), ((1 << 30) + 1, 31));
    assert_eq!(reciprocal_scale(3), (1_431_655_766, 32));
    assert_eq!(reciprocal_scale(4), ((1 << 30) + 1, 32));
    assert_eq!(reciprocal_scale(9), (1_908_874_355, 34));
    assert_eq!(reciprocal_scale(65536), ((1 << 30) + 1, 46));
    // Averages through apply_scale_32: 45 / 9 = 5; -4 / 8 = -0.5 rounds to -1
    // because the multiplier is slightly above 2^30.
    let (m, s) = reciprocal_scale(9);
    assert_eq!(apply_scale_32(45, m, s, false), Ok(5));
    let (m, s) = reciprocal_scale(8);
    assert_eq!(apply_scale_32(-4, m, s, false), Ok(-1));
    assert_eq!(apply_scale_32(4, m, s, false), Ok(1));
}

#[test]
fn mul_shift_edges() {
    // Shift 0: the product is truncated to 32 bits.
    assert_eq!(mul_shift_i32(MIN, MIN, 0), Ok(0));
    assert_eq!(mul_shift_i32(MAX, 2, 0), Ok(-2));
    assert_eq!(mul_shift_i32(MAX, MAX, 0), Ok(1));
    // Shift 63: (2^62 + 2^62) >> 63 = 1 (needs more than 64 bits in between).
    assert_eq!(mul_shift_i32(MIN, MIN, 63), Ok(1));
    assert_eq!(mul_shift_i32(MIN, MAX, 63), Ok(0));
    // Shift 31 and 32 on INT32_MIN^2 = 2^62.
    assert_eq!(mul_shift_i32(MIN, MIN, 31), Err(Require::MulResultRange));
    assert_eq!(mul_shift_i32(MIN, MIN, 32), Ok(1 << 30));
    assert_eq!(mul_shift_i32(MIN, 1, 31), Ok(-1));
    // Ties round half up.
    assert_eq!(mul_shift_i32(3, 1, 1), Ok(2));
    assert_eq!(mul_shift_i32(-3, 1, 1), Ok(-1));
    assert_eq!(mul_shift_i32(1, 1, 1), Ok(1));
    assert_eq!(mul_shift_i32(-1, 1, 1), Ok(0));
    assert_eq!(mul_shift_i32(1, 1, 64), Err(Require::MulShift));
    assert_eq!(mul_shift_i32(1, 1, -1), Err(Require::MulShift));
}

#[test]
fn arithmetic_right_shift_edges() {
    assert_eq!(arithmetic_right_shift(i64::from(MIN), 31, false, 32), Ok(-1));
    assert_eq!(arithmetic_right_shift(i64::from(MIN), 31, true, 32), Ok(-1)); // bit 30 is 0
    assert_eq!(arithmetic_right_shift(-1, 31, true, 32), Ok(0)); // -0.5 rounds up to 0
    assert_eq!(arithmetic_right_shift(5, 1, true, 32), Ok(3)); // 2.5 -> 3
    assert_eq!(arithmetic_right_shift(-5, 1, true, 32), Ok(-2)); // -2.5 -> -2
    assert_eq!(arithmetic_right_shift(-5, 1, false, 32), Ok(-3));
    assert_eq!(arithmetic_right_shift(7, 0, true, 32), Ok(7)); // no rounding at shift 0
    assert_eq!(arithmetic_right_shift(i64::from(MAX), 31, true, 32), Ok(1));
    assert_eq!(arithmetic_right_shift(1, 32, false, 32), Err(Require::ShiftRange));
    assert_eq!(arithmetic_right_shift(1, -1, false, 32), Err(Require::ShiftRange));
    assert_eq!(arithmetic_right_shift(-128, 7, true, 8), Ok(-1));
    assert_eq!(arithmetic_right_shift(-128, 8, true, 8), Err(Require::ShiftRange));
    assert_eq!(arithmetic_right_shift(-32768, 15, false, 16), Ok(-1));
}

#[test]
fn logical_shift_edges() {
    assert_eq!(logical_left_shift(1, 7, 8), Ok(-128));
    assert_eq!(logical_left_shift(64, 2, 8), Ok(0));
    assert_eq!(logical_left_shift(-1, 7, 8), Ok(-128));
    assert_eq!(logical_left_shift(1, 31, 32), Ok(i64::from(MIN)));
    assert_eq!(logical_left_shift(3, 31, 32), Ok(i64::from(MIN)));
    assert_eq!(logical_left_shift(1, 0, 32), Ok(1));
    assert_eq!(logical_left_shift(1, 32, 32), Err(Require::ShiftRange));
    assert_eq!(logical_right_shift(-128, 1, 8), Ok(64));
    assert_eq!(logical_right_shift(-1, 7, 8), Ok(1));
    assert_eq!(logical_right_shift(-1, 15, 16), Ok(1));
    assert_eq!(logical_right_shift(-1, 31, 32), Ok(1));
    assert_eq!(logical_right_shift(i64::from(MIN), 0, 32), Ok(i64::from(MIN)));
    assert_eq!(logical_right_shift(i64::from(MIN), 1, 32), Ok(1 << 30));
    assert_eq!(logical_right_shift(1, 8, 8), Err(Require::ShiftRange));
}

#[test]
fn intdiv_truncates_toward_zero() {
    assert_eq!(intdiv(7, 2), Ok(3));
    assert_eq!(intdiv(-7, 2), Ok(-3));
    assert_eq!(intdiv(7, -2), Ok(-3));
    assert_eq!(intdiv(-7, -2), Ok(3));
    assert_eq!(intdiv(i64::from(MIN), 1), Ok(i64::from(MIN)));
    assert_eq!(intdiv(i64::from(MIN), -1), Err(Require::DivideOverflow));
    assert_eq!(intdiv(1, 0), Err(Require::DivideByZero));
}

#[test]
fn clz_edges() {
    assert_eq!(clz32(0), 32);
    assert_eq!(clz32(1), 31);
    assert_eq!(clz32(-1), 0);
    assert_eq!(clz32(MIN), 0);
    assert_eq!(clz32(MAX), 1);
    assert_eq!(clz32(0x0001_0000), 15);
}

#[test]
fn add_sub_saturation_bounds() {
    assert_eq!(add_s(i64::from(MAX), 0, 32), Ok(i64::from(MAX)));
    assert_eq!(add_s(i64::from(MAX), 1, 32), Err(Require::AddOverflow));
    assert_eq!(add_s(i64::from(MIN), -1, 32), Err(Require::AddOverflow));
    assert_eq!(sub_s(i64::from(MIN), 1, 32), Err(Require::SubOverflow));
    assert_eq!(sub_s(0, i64::from(MIN), 32), Err(Require::SubOverflow));
    assert_eq!(sub_s(-1, i64::from(MIN), 32), Ok(i64::from(MAX)));
    assert_eq!(add_s((1 << 47) - 1, 1, 48), Err(Require::AddOverflow));
    assert_eq!(signed_range(8), (-128, 127));
    assert_eq!(unsigned_range(16), (0, 65535));
    assert_eq!(clip(300, -128, 127), 127);
    assert_eq!(clip(-300, -128, 127), -128);
    assert_eq!(sext(0xff, 8), -1);
    assert_eq!(zext(-1, 16), 65535);
}

#[test]
fn table_lookups() {
    let t8: Vec<i64> = (0..256).map(|i| 255 - i).collect();
    assert_eq!(lookup_i8(&t8, -128), Some(255));
    assert_eq!(lookup_i8(&t8, 127), Some(0));
    // Identity-like i16 table: table[i] = i gives (x + 32768) in 16.7 / 128 steps.
    let t16: Vec<i64> = (0..513).collect();
    assert_eq!(lookup_i16(&t16, -32768), Ok(0));
    assert_eq!(lookup_i16(&t16, -1), Ok(32767));
    assert_eq!(lookup_i16(&t16, 0), Ok(32768));
    assert_eq!(lookup_i16(&t16, 1), Ok(32769));
    assert_eq!(lookup_i16(&t16, 32767), Ok(65535));
    // A slope of 65535 does not fit i16.
    let mut steep = vec![0i64; 513];
    steep[0] = -32768;
    steep[1] = 32767;
    assert_eq!(lookup_i16(&steep, -32768), Err(Require::TableSlope));
    assert_eq!(lookup_i16(&steep, 0), Ok(0));
}

#[test]
fn float_to_int_rounds_ties_to_even_and_saturates() {
    let (lo, hi) = (i64::from(MIN), i64::from(MAX));
    assert_eq!(float_to_int(2.5, lo, hi), Ok(2));
    assert_eq!(float_to_int(3.5, lo, hi), Ok(4));
    assert_eq!(float_to_int(-2.5, lo, hi), Ok(-2));
    assert_eq!(float_to_int(-0.5, lo, hi), Ok(0));
    assert_eq!(float_to_int(0.5, lo, hi), Ok(0));
    assert_eq!(float_to_int(1.5, lo, hi), Ok(2));
    assert_eq!(float_to_int(127.5, -128, 127), Ok(127));
    assert_eq!(float_to_int(-128.5, -128, 127), Ok(-128));
    assert_eq!(float_to_int(1e10, lo, hi), Ok(hi));
    assert_eq!(float_to_int(2147483647.5, lo, hi), Ok(hi));
    assert_eq!(float_to_int(f64::NEG_INFINITY, lo, hi), Ok(lo));
    assert_eq!(float_to_int(f64::INFINITY, -32768, 32767), Ok(32767));
    assert_eq!(float_to_int(f64::NAN, lo, hi), Err(Require::CastNan));
}

//! Element-wise binary operators (§4.3): ADD, SUB, MUL, INTDIV, the shifts,
//! the bitwise and logical operators, MAXIMUM, MINIMUM, POW.
//!
//! Integers are computed in `i64` with the specification's REQUIREs checked
//! per element. fp16/bf16/fp32 arithmetic is done in `f32` and rounded once
//! to the output type; `f32` has more than twice the precision of fp16 and
//! bf16 plus two bits, so the result equals the correctly rounded one.

use super::convert::{bools, from_f32, from_f64, from_i64, int_bits, to_f32, to_f64, to_i64};
use super::ctx::Ctx;
use super::error::OpError;
use super::intmath::{self as im, Checked, Require};
use super::zipmap::{checked, map2};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::NanMode;

/// The operators of this group, each named by [`super::dispatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Binary {
    Add,
    ArithmeticRightShift,
    BitwiseAnd,
    BitwiseOr,
    BitwiseXor,
    Intdiv,
    LogicalAnd,
    LogicalLeftShift,
    LogicalRightShift,
    LogicalOr,
    LogicalXor,
    Maximum,
    Minimum,
    Mul,
    Pow,
    Sub,
}

/// Runs one element-wise binary operator.
pub(crate) fn run(cx: &Ctx<'_>, op: Binary) -> Result<TensorData, OpError> {
    let in_elem = cx.slot(cx.spec.slots.first().copied().unwrap_or("in_out_t"))?;
    let bits = int_bits(in_elem);
    match op {
        Binary::Add if in_elem.is_float() => float(cx, |x, y| x + y),
        Binary::Add => int(cx, move |x, y| im::add_s(x, y, bits)),
        Binary::Sub if in_elem.is_float() => float(cx, |x, y| x - y),
        Binary::Sub => int(cx, move |x, y| im::sub_s(x, y, bits)),
        Binary::Mul => mul(cx, in_elem),
        Binary::Intdiv => int(cx, im::intdiv),
        Binary::ArithmeticRightShift => {
            let round = cx.flag("round")?;
            int(cx, move |x, y| im::arithmetic_right_shift(x, y, round, bits))
        }
        Binary::LogicalLeftShift => int(cx, move |x, y| im::logical_left_shift(x, y, bits)),
        Binary::LogicalRightShift => int(cx, move |x, y| im::logical_right_shift(x, y, bits)),
        Binary::BitwiseAnd => int(cx, |x, y| Ok(x & y)),
        Binary::BitwiseOr => int(cx, |x, y| Ok(x | y)),
        Binary::BitwiseXor => int(cx, |x, y| Ok(x ^ y)),
        Binary::LogicalAnd => logical(cx, |x, y| x && y),
        Binary::LogicalOr => logical(cx, |x, y| x || y),
        Binary::LogicalXor => logical(cx, |x, y| x != y),
        Binary::Maximum | Binary::Minimum => min_max(cx, in_elem, op == Binary::Maximum),
        Binary::Pow => pow(cx),
    }
}

fn int(cx: &Ctx<'_>, f: impl Fn(i64, i64) -> Checked<i64> + Sync + Send) -> Result<TensorData, OpError> {
    let a = to_i64(cx.tensor("input1")?)?;
    let b = to_i64(cx.tensor("input2")?)?;
    let r = checked(map2(&a, &b, cx.out_shape(0)?, f)?)?;
    from_i64(cx.out_elem()?, r)
}

fn float(cx: &Ctx<'_>, f: impl Fn(f32, f32) -> f32 + Sync + Send) -> Result<TensorData, OpError> {
    let a = to_f32(cx.tensor("input1")?)?;
    let b = to_f32(cx.tensor("input2")?)?;
    let r = map2(&a, &b, cx.out_shape(0)?, f)?;
    from_f32(cx.out_elem()?, r)
}

fn logical(cx: &Ctx<'_>, f: impl Fn(bool, bool) -> bool + Sync + Send) -> Result<TensorData, OpError> {
    let a = bools(cx.tensor("input1")?)?;
    let b = bools(cx.tensor("input2")?)?;
    Ok(TensorData::Bool(map2(a, b, cx.out_shape(0)?, f)?))
}

/// MUL: i8/i16 products are exact in i32; i32 uses the shift (0 wraps, >0
/// rounds half up with a range REQUIRE); floats multiply.
fn mul(cx: &Ctx<'_>, in_elem: ElemType) -> Result<TensorData, OpError> {
    let shift_t = cx.tensor("shift")?;
    let shift = match shift_t.to_bits().as_slice() {
        [s] => *s as i64,
        _ => return Err(OpError::invalid("MUL: shift must have exactly one element")),
    };
    if in_elem == ElemType::I32 {
        if !(0..=63).contains(&shift) {
            return Err(OpError::require(Require::MulShift));
        }
        let s = shift as i32;
        return int(cx, move |x, y| im::mul_shift_i32(x as i32, y as i32, s).map(i64::from));
    }
    if shift != 0 {
        return Err(OpError::require(Require::MulShift));
    }
    if in_elem.is_float() {
        float(cx, |x, y| x * y)
    } else {
        int(cx, |x, y| Ok(x * y))
    }
}

fn min_max(cx: &Ctx<'_>, in_elem: ElemType, is_max: bool) -> Result<TensorData, OpError> {
    if !in_elem.is_float() {
        return int(cx, move |x, y| Ok(if is_max { x.max(y) } else { x.min(y) }));
    }
    let mode = nan_mode(cx)?;
    float(cx, move |x, y| if is_max { fmax(x, y, mode) } else { fmin(x, y, mode) })
}

/// The `nan_mode` attribute.
pub(crate) fn nan_mode(cx: &Ctx<'_>) -> Result<NanMode, OpError> {
    let v = cx.int("nan_mode")?;
    u32::try_from(v)
        .ok()
        .and_then(NanMode::from_u32)
        .ok_or_else(|| OpError::invalid(format!("{}: nan_mode {v} is not a valid enumerant", cx.op)))
}

/// `apply_max_s` with a NaN mode: `a >= b ? a : b` on numbers.
pub(crate) fn fmax(a: f32, b: f32, mode: NanMode) -> f32 {
    match (a.is_nan(), b.is_nan(), mode) {
        (true, _, NanMode::Propagate) | (_, true, NanMode::Propagate) => f32::NAN,
        (true, _, NanMode::Ignore) => b,
        (_, true, NanMode::Ignore) => a,
        _ if a >= b => a,
        _ => b,
    }
}

/// `apply_min_s` with a NaN mode: `a < b ? a : b` on numbers.
pub(crate) fn fmin(a: f32, b: f32, mode: NanMode) -> f32 {
    match (a.is_nan(), b.is_nan(), mode) {
        (true, _, NanMode::Propagate) | (_, true, NanMode::Propagate) => f32::NAN,
        (true, _, NanMode::Ignore) => b,
        (_, true, NanMode::Ignore) => a,
        _ if a < b => a,
        _ => b,
    }
}

/// POW in f64, rounded once; its domain REQUIREs make other inputs unpredictable.
fn pow(cx: &Ctx<'_>) -> Result<TensorData, OpError> {
    let a = to_f64(cx.tensor("input1")?)?;
    let b = to_f64(cx.tensor("input2")?)?;
    let r = checked(map2(&a, &b, cx.out_shape(0)?, |x: f64, y: f64| {
        let finite = x.is_finite() && y.is_finite();
        if finite && (x > 0.0 || (x == 0.0 && y > 0.0)) {
            Ok(x.powf(y))
        } else {
            Err(Require::PowDomain)
        }
    })?)?;
    from_f64(cx.out_elem()?, r)
}

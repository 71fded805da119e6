//! Element-wise unary operators (§4.4) and the activation functions (§4.2):
//! ABS, BITWISE_NOT, CEIL, CLZ, COS, EXP, FLOOR, LOG, LOGICAL_NOT, NEGATE,
//! RECIPROCAL, RSQRT, SIN, CLAMP, ERF, SIGMOID, TANH.
//!
//! Transcendental functions are evaluated in `f64` and rounded once to the
//! output type, well inside their TOSA error bounds; the exact operations
//! (ABS, NEGATE, CEIL, FLOOR, CLAMP) give the exact result.

use super::convert::{bools, from_f32, from_f64, from_i64, int_bits, to_f32, to_f64, to_i64};
use super::ctx::Ctx;
use super::elementwise::nan_mode;
use super::error::OpError;
use super::fp;
use super::intmath::{self as im, Require};
use super::zipmap::{checked, map1};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::NanMode;

/// The operators of this group, each named by [`super::dispatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unary {
    Abs,
    BitwiseNot,
    Ceil,
    Clz,
    Cos,
    Exp,
    Floor,
    Log,
    LogicalNot,
    Negate,
    Reciprocal,
    Rsqrt,
    Sin,
    Clamp,
    Erf,
    Sigmoid,
    Tanh,
}

/// Runs one element-wise unary operator or activation function.
pub(crate) fn run(cx: &Ctx<'_>, op: Unary) -> Result<TensorData, OpError> {
    let elem = cx.types.first().copied().ok_or_else(|| OpError::invalid("no type row"))?;
    match op {
        Unary::Abs if elem.is_float() => float32(cx, "input1", f32::abs),
        Unary::Abs => int(cx, |x| if x == i64::from(i32::MIN) { Err(Require::NegateOverflow) } else { Ok(x.abs()) }),
        Unary::BitwiseNot => int(cx, |x| Ok(!x)),
        Unary::Ceil => float32(cx, "input1", f32::ceil),
        Unary::Floor => float32(cx, "input1", f32::floor),
        Unary::Clz => int(cx, |x| Ok(i64::from(im::clz32(x as i32)))),
        Unary::Cos => float64(cx, "input1", f64::cos),
        Unary::Sin => float64(cx, "input1", f64::sin),
        Unary::Exp => float64(cx, "input1", f64::exp),
        Unary::Log => float64(cx, "input1", f64::ln),
        Unary::Reciprocal => float32(cx, "input1", f32::recip),
        Unary::Rsqrt => float64(cx, "input1", |x| 1.0 / x.sqrt()),
        Unary::LogicalNot => Ok(TensorData::Bool(map1(bools(cx.tensor("input1")?)?, |x: bool| !x))),
        Unary::Negate => negate(cx, elem),
        Unary::Erf => float64(cx, "input", erf),
        Unary::Sigmoid => float64(cx, "input", |x| 1.0 / (1.0 + (-x).exp())),
        Unary::Tanh => float64(cx, "input", f64::tanh),
        Unary::Clamp => clamp(cx, elem),
    }
}

fn int(cx: &Ctx<'_>, f: impl Fn(i64) -> Result<i64, Require> + Sync + Send) -> Result<TensorData, OpError> {
    let a = to_i64(cx.tensor("input1")?)?;
    from_i64(cx.out_elem()?, checked(map1(&a, f))?)
}

fn float32(cx: &Ctx<'_>, input: &str, f: impl Fn(f32) -> f32 + Sync + Send) -> Result<TensorData, OpError> {
    let a = to_f32(cx.tensor(input)?)?;
    from_f32(cx.out_elem()?, map1(&a, f))
}

fn float64(cx: &Ctx<'_>, input: &str, f: impl Fn(f64) -> f64 + Sync + Send) -> Result<TensorData, OpError> {
    let a = to_f64(cx.tensor(input)?)?;
    from_f64(cx.out_elem()?, map1(&a, f))
}

/// NEGATE: floats flip the sign; integers subtract the input zero point,
/// negate, add the output zero point in i32 (each step REQUIREs no
/// overflow) and saturate to the type.
fn negate(cx: &Ctx<'_>, elem: ElemType) -> Result<TensorData, OpError> {
    let in_zp = cx.zero_point("input1_zp")?;
    let out_zp = cx.zero_point("output_zp")?;
    if elem.is_float() {
        return float32(cx, "input1", |x| -x);
    }
    let (lo, hi) = im::signed_range(int_bits(elem));
    int(cx, move |x| {
        let v = im::sub_s(x, in_zp, 32)?;
        let v = im::sub_s(0, v, 32)?;
        let v = im::add_s(v, out_zp, 32)?;
        Ok(im::clip(v, lo, hi))
    })
}

/// CLAMP: `min(max(x, min_val), max_val)`; for floats NaN gives NaN
/// (PROPAGATE) or `min_val` (IGNORE). A NaN bound or `min_val > max_val` is
/// an ERROR_IF.
fn clamp(cx: &Ctx<'_>, elem: ElemType) -> Result<TensorData, OpError> {
    let lo_bits = cx.scalar("min_val")?;
    let hi_bits = cx.scalar("max_val")?;
    if elem.is_float() {
        let mode = nan_mode(cx)?;
        let lo = fp::decode_elem(elem, lo_bits).unwrap_or(f64::NAN) as f32;
        let hi = fp::decode_elem(elem, hi_bits).unwrap_or(f64::NAN) as f32;
        if lo.is_nan() || hi.is_nan() || lo > hi {
            return Err(OpError::invalid(format!(
                "CLAMP: min_val {lo} / max_val {hi} must be numbers with min <= max"
            )));
        }
        return float32(cx, "input", move |x| {
            if x.is_nan() {
                match mode {
                    NanMode::Propagate => f32::NAN,
                    NanMode::Ignore => lo,
                }
            } else {
                x.max(lo).min(hi)
            }
        });
    }
    let bits = int_bits(elem);
    let lo = im::sext(lo_bits as i64, bits);
    let hi = im::sext(hi_bits as i64, bits);
    if lo > hi {
        return Err(OpError::invalid(format!("CLAMP: min_val {lo} > max_val {hi}")));
    }
    let a = to_i64(cx.tensor("input")?)?;
    from_i64(cx.out_elem()?, map1(&a, move |x| im::clip(x, lo, hi)))
}

/// The error function, to about 1e-15 relative accuracy.
///
/// |x| < 3: `erf(x) = 2/√π · e^(−x²) · Σ (2x²)^n x / (1·3·…·(2n+1))`, a series
/// of positive terms (no cancellation). Beyond: `erfc` by its continued
/// fraction `e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))`,
/// evaluated backwards from a fixed depth, which converges fast there.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    let r = if a < 3.0 {
        let x2 = a * a;
        let mut term = a;
        let mut sum = a;
        let mut n = 0.0;
        while term > sum * 1e-17 {
            n += 1.0;
            term *= 2.0 * x2 / (2.0 * n + 1.0);
            sum += term;
        }
        std::f64::consts::FRAC_2_SQRT_PI * (-x2).exp() * sum
    } else if a < 6.0 {
        let mut frac = a;
        for k in (1..=60).rev() {
            frac = a + (f64::from(k) / 2.0) / frac;
        }
        let erfc = (-a * a).exp() / (std::f64::consts::PI.sqrt() * frac);
        1.0 - erfc
    } else {
        1.0
    };
    if x.is_sign_negative() {
        -r
    } else {
        r
    }
}

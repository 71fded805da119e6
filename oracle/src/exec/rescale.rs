//! RESCALE (§4.11): zero points, `apply_scale_32`/`apply_scale_16`, signedness
//! flags and saturation, bit-exact. INEXACT_ROUND is computed with the exact
//! single rounding, which lies inside its allowed interval.

use super::convert::{flat, from_i64, int_bits, shaped, to_i64};
use super::ctx::Ctx;
use super::error::{unflatten, OpError};
use super::intmath::{self as im};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::RoundingMode;

/// One zero point as the pipeline reads it (zero- or sign-extended).
fn zero_point(cx: &Ctx<'_>, name: &str, elem: ElemType, unsigned: bool) -> Result<i64, OpError> {
    let t = cx.tensor(name)?;
    let v = match flat(&to_i64(t)?).first() {
        Some(&v) if t.len() == 1 => v,
        _ => return Err(OpError::invalid(format!("RESCALE: {name} must have exactly one element"))),
    };
    let bits = int_bits(elem);
    let v = if unsigned { im::zext(v, bits) } else { v };
    let ok = match (elem, unsigned) {
        (ElemType::I8, _) => true,
        (ElemType::I16, true) => v == 0 || v == 32768,
        _ => v == 0,
    };
    if !ok {
        return Err(OpError::invalid(format!(
            "RESCALE: {name} = {v} is not allowed for {}{elem} (ERROR_IF)",
            if unsigned { "unsigned " } else { "" }
        )));
    }
    Ok(v)
}

/// Runs RESCALE.
pub(crate) fn run(cx: &Ctx<'_>) -> Result<TensorData, OpError> {
    let scale32 = cx.flag("scale32")?;
    let mode_value = cx.int("rounding_mode")?;
    let mode = u32::try_from(mode_value)
        .ok()
        .and_then(RoundingMode::from_u32)
        .ok_or_else(|| OpError::invalid(format!("RESCALE: rounding_mode {mode_value} is not a valid enumerant")))?;
    let per_channel = cx.flag("per_channel")?;
    let in_unsigned = cx.flag("input_unsigned")?;
    let out_unsigned = cx.flag("output_unsigned")?;
    let in_elem = cx.slot("in_t")?;
    let out_elem = cx.slot("out_t")?;
    let wide = |e: ElemType| matches!(e, ElemType::I32 | ElemType::I48);
    let errors = [
        (scale32 && in_elem == ElemType::I48, "scale32 with an i48 input"),
        (!scale32 && mode == RoundingMode::DoubleRound, "DOUBLE_ROUND without scale32"),
        (in_unsigned && out_unsigned, "input_unsigned and output_unsigned both set"),
        (out_elem == ElemType::I32 && in_unsigned, "input_unsigned with an i32 output"),
        (wide(in_elem) && out_unsigned, "output_unsigned with an i32/i48 input"),
        (wide(in_elem) && in_unsigned, "input_unsigned with an i32/i48 input"),
        (out_elem == ElemType::I32 && out_unsigned, "output_unsigned with an i32 output"),
    ];
    if let Some((_, why)) = errors.iter().find(|(bad, _)| *bad) {
        return Err(OpError::invalid(format!("RESCALE: {why} (ERROR_IF)")));
    }
    let in_zp = zero_point(cx, "input_zp", in_elem, in_unsigned)?;
    let out_zp = zero_point(cx, "output_zp", out_elem, out_unsigned)?;
    let input = cx.tensor("input")?;
    let shape = input.shape().to_vec();
    let nc = if per_channel { shape.last().copied().unwrap_or(1) } else { 1 };
    let multiplier = flat(&to_i64(cx.tensor("multiplier")?)?).into_owned();
    let shift = flat(&to_i64(cx.tensor("shift")?)?).into_owned();
    if multiplier.len() != nc || shift.len() != nc {
        return Err(OpError::invalid(format!(
            "RESCALE: multiplier/shift have {}/{} elements, expected {nc}",
            multiplier.len(),
            shift.len()
        )));
    }
    let in_bits = int_bits(in_elem);
    let out_bits = int_bits(out_elem);
    let (lo, hi) = if out_unsigned { im::unsigned_range(out_bits) } else { im::signed_range(out_bits) };
    let double = mode == RoundingMode::DoubleRound;
    let x = flat(&to_i64(input)?).into_owned();
    let mut out = Vec::with_capacity(x.len());
    for (i, &raw) in x.iter().enumerate() {
        let c = if per_channel { i % nc } else { 0 };
        let v = if in_unsigned { im::zext(raw, in_bits) } else { raw } - in_zp;
        let step = || -> Result<i64, im::Require> {
            let r = if scale32 {
                im::apply_scale_32(v, multiplier[c], shift[c], double)?
            } else {
                im::apply_scale_16(v, multiplier[c], shift[c])?
            };
            let r = im::add_s(i64::from(r), out_zp, 32)?;
            Ok(im::clip(r, lo, hi))
        };
        out.push(step().map_err(|e| OpError::require_at(e, unflatten(i, &shape)))?);
    }
    from_i64(out_elem, shaped(&shape, out)?)
}

//! Value rules on constant operands: the catalogue's `ValueRule`s that are
//! not shape rules (zero points, CLAMP bounds, the REQUIREs on MUL and
//! RESCALE shifts and multipliers), TABLE's exact size, and RESCALE's flag
//! ERROR_IFs.

use super::super::context::Cx;
use super::Facts;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::scalar::float_bits_to_f64;
use spvgraph_ir::tosa::spec::table_size;
use spvgraph_ir::tosa::{ElemRef, Form, Len, RoundingMode, TosaOp, ValueRule};

/// Sign-extends the low `bits` bits.
fn signed(v: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return v as i64;
    }
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

/// A scalar of `elem` as f64 (integers signed), for comparisons.
fn numeric(elem: ElemType, bits: u64) -> f64 {
    if elem.is_float() {
        float_bits_to_f64(elem, bits).unwrap_or(f64::NAN)
    } else if elem == ElemType::Bool {
        (bits != 0) as u8 as f64
    } else {
        signed(bits, elem.storage_bits()) as f64
    }
}

fn is_zero(elem: ElemType, bits: u64) -> bool {
    numeric(elem, bits) == 0.0
}

fn elem_of(f: &Facts, form: Form) -> Option<ElemType> {
    match form.elem() {
        ElemRef::Slot(s) => f.slot(s),
        ElemRef::Fixed(t) => Some(t),
    }
}

fn flag(f: &Facts, index: usize) -> Option<bool> {
    f.first(f.operands.get(index)?).map(|b| b != 0)
}

fn check_rescale(cx: &mut Cx<'_>, f: &Facts) {
    let (Some(scale32), Some(in_u), Some(out_u)) =
        (f.value("scale32").map(|v| v != 0), f.value("input_unsigned"), f.value("output_unsigned"))
    else {
        return;
    };
    let (in_u, out_u) = (in_u != 0, out_u != 0);
    if !scale32 && f.value("rounding_mode") == Some(RoundingMode::DoubleRound.value() as u64) {
        cx.at(f.at, RuleId::TosaRescaleDoubleRound, "RESCALE: rounding_mode DOUBLE_ROUND needs scale32 = true");
    }
    let (Some(in_t), Some(out_t)) = (f.slot(0), f.slot(1)) else { return };
    let wide_in = matches!(in_t, ElemType::I32 | ElemType::I48);
    let why = if in_u && out_u {
        Some("input_unsigned and output_unsigned are both true")
    } else if in_u && wide_in {
        Some("input_unsigned is true for an i32/i48 input")
    } else if in_u && out_t == ElemType::I32 {
        Some("input_unsigned is true for an i32 output")
    } else if out_u && out_t == ElemType::I32 {
        Some("output_unsigned is true for an i32 output")
    } else if out_u && wide_in {
        Some("output_unsigned is true for an i32/i48 input")
    } else {
        None
    };
    if let Some(why) = why {
        cx.at(f.at, RuleId::TosaRescaleUnsigned, format_args!("RESCALE: {why}"));
    }
}

fn check_clamp(cx: &mut Cx<'_>, f: &Facts) {
    let (Some(elem), Some(lo), Some(hi)) = (f.slot(0), f.value("min_val"), f.value("max_val")) else { return };
    let (lo, hi) = (numeric(elem, lo), numeric(elem, hi));
    if lo.is_nan() || hi.is_nan() {
        cx.at(f.at, RuleId::TosaClampBounds, "CLAMP: min_val and max_val must not be NaN");
    } else if lo > hi {
        cx.at(f.at, RuleId::TosaClampBounds, format_args!("CLAMP: min_val = {lo} is greater than max_val = {hi}"));
    }
}

/// Runs the value checks of one instruction.
pub fn check(cx: &mut Cx<'_>, f: &Facts) {
    let spec = f.op.spec();
    for (k, o) in f.operands.iter().enumerate() {
        let Some(ospec) = spec.operand(k) else { continue };
        let Some(bits) = f.bits(o) else { continue };
        let elem = elem_of(f, ospec.form);
        match (ospec.value, elem) {
            (ValueRule::ZeroPoint, Some(t)) if t != ElemType::I8 && bits.iter().any(|&b| !is_zero(t, b)) => {
                cx.at(
                    f.at,
                    RuleId::TosaZeroPoint,
                    format_args!("{}: {} must be 0 because its tensor is {t}, not i8", f.op, ospec.name),
                );
            }
            (ValueRule::RescaleZeroPoint { unsigned_flag }, Some(t)) => {
                // An unknown flag (malformed, reported as such, or a spec
                // constant) may be true: accept what unsigned allows.
                let unsigned = flag(f, usize::from(unsigned_flag)).unwrap_or(true);
                let ok = |b: u64| match t {
                    ElemType::I8 => true,
                    ElemType::I16 if unsigned => b & 0xffff == 0 || b & 0xffff == 0x8000,
                    _ => is_zero(t, b),
                };
                if let Some(&b) = bits.iter().find(|&&b| !ok(b)) {
                    let allowed = if t == ElemType::I16 && unsigned { "0 or 32768" } else { "0" };
                    cx.at(
                        f.at,
                        RuleId::TosaRescaleZeroPoint,
                        format_args!(
                            "RESCALE: {} = {} must be {allowed} for {t}{}",
                            ospec.name,
                            signed(b, t.storage_bits()),
                            if unsigned { " (unsigned)" } else { "" }
                        ),
                    );
                }
            }
            (ValueRule::MulShift, _) => {
                let wide = f.slot(0) == Some(ElemType::I32);
                if let Some(&b) = bits.first() {
                    let v = signed(b, 8);
                    let ok = if wide { (0..=63).contains(&v) } else { v == 0 };
                    if !ok {
                        let want = if wide { "in 0..63" } else { "0 for non-i32 inputs" };
                        cx.at(f.at, RuleId::TosaRequireMulShift, format_args!("MUL: shift = {v} should be {want}"));
                    }
                }
            }
            (ValueRule::RescaleShift, _) => {
                if let Some(v) = bits.iter().map(|&b| signed(b, 8)).find(|v| !(2..=62).contains(v)) {
                    cx.at(f.at, RuleId::TosaRequireRescaleShift, format_args!("RESCALE: shift {v} is outside 2..62"));
                }
            }
            (ValueRule::NonNegative, Some(t)) => {
                if let Some(v) = bits.iter().map(|&b| signed(b, t.storage_bits())).find(|v| *v < 0) {
                    cx.at(
                        f.at,
                        RuleId::TosaRequireRescaleMultiplier,
                        format_args!("RESCALE: multiplier {v} is negative"),
                    );
                }
            }
            _ => {}
        }
        let shape = o.shape.and_then(|t| cx.tensor_dims(t));
        if let (Form::ConstTensor { len: Len::TableSize { slot }, .. }, Some(shape)) = (ospec.form, shape) {
            if let Some(want) = f.slot(slot).and_then(table_size) {
                if shape.first().copied() != Some(u64::from(want)) {
                    let message = cx.text(format_args!(
                        "{}: {} has {:?} entries, {want} are needed for this input type",
                        f.op, ospec.name, shape
                    ));
                    cx.at(f.at, RuleId::TosaShapeLength, message);
                }
            }
        }
    }
    match f.op {
        TosaOp::Rescale => check_rescale(cx, f),
        TosaOp::Clamp => check_clamp(cx, f),
        _ => {}
    }
}

//! Shapes: feeds what the module says into the catalogue's shape inference
//! (`infer_shapes` / `check_output`) and turns its errors into rules.

use super::super::context::Cx;
use super::operands::as_i32s;
use super::Facts;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::{check_output, infer_shapes, Form, ShapeArg, ShapeError, ShapeErrorKind, ShapeInputs};

/// The shape-inference view of an instruction's operands (`Opaque` where a
/// shape or value is not in the module). Tensor shapes are moved out of the
/// operands (nothing after shape inference reads them there).
pub fn take_inputs(f: &mut Facts) -> ShapeInputs {
    let spec = f.op.spec();
    let args = f
        .operands
        .iter_mut()
        .enumerate()
        .map(|(k, o)| {
            let Some(ospec) = spec.operand(k) else { return ShapeArg::Opaque };
            let known = match ospec.form {
                Form::Tensor { .. } | Form::ConstTensor { .. } => o.shape.take().map(ShapeArg::Tensor),
                Form::I32Array { .. } | Form::AxisConst { .. } => o.bits.get().map(|b| ShapeArg::Ints(as_i32s(b))),
                Form::BoolConst => o.bits.first().map(|b| ShapeArg::Bool(b != 0)),
                Form::EnumConst(_) | Form::ScalarConst { .. } => None,
            };
            known.unwrap_or(ShapeArg::Opaque)
        })
        .collect();
    ShapeInputs { args }
}

/// The rule a shape-inference error breaks; `None` for errors another check
/// already reports (empty shapes are type errors).
fn rule_of(e: &ShapeError) -> Option<RuleId> {
    let rule = match &e.kind {
        ShapeErrorKind::OperandCount { .. } => RuleId::TosaOperandCount,
        ShapeErrorKind::ArgKind { .. } | ShapeErrorKind::Catalogue(_) => RuleId::TosaShapeUnknown,
        ShapeErrorKind::EmptyShape { .. } => return None,
        ShapeErrorKind::Rank { .. } => RuleId::TosaShapeRank,
        ShapeErrorKind::Length { .. } => RuleId::TosaShapeLength,
        ShapeErrorKind::Value { name, .. } if name == "axis" => RuleId::TosaAttributeAxis,
        ShapeErrorKind::Value { .. } => RuleId::TosaAttributeRange,
        ShapeErrorKind::NotDivisible { .. } => RuleId::TosaShapeInexactDivision,
        ShapeErrorKind::Mismatch { .. } | ShapeErrorKind::ShapeMismatch { .. } => RuleId::TosaShapeMismatch,
        ShapeErrorKind::Broadcast { .. } => RuleId::TosaShapeBroadcast,
        ShapeErrorKind::OutputDim { .. } => RuleId::TosaShapeOutputRange,
        ShapeErrorKind::NotPowerOfTwo { .. } => RuleId::TosaFftPowerOfTwo,
        ShapeErrorKind::NotPermutation { .. } => RuleId::TosaTransposePerms,
        ShapeErrorKind::ElementCount { .. } => RuleId::TosaShapeElementCount,
        ShapeErrorKind::OutputMismatch { .. } => RuleId::TosaShapeOutput,
        ShapeErrorKind::OutputCount { .. } => RuleId::TosaResultType,
    };
    Some(rule)
}

/// Checks the shapes of one well-formed instruction (the last check: the
/// declared result shapes are moved out of `f`).
pub fn check(cx: &mut Cx<'_>, f: &mut Facts, inputs: &ShapeInputs) {
    let Some(results) = f.results.as_mut() else { return };
    let declared: Option<Vec<Vec<u32>>> = results.iter_mut().map(|r| r.dims.take()).collect();
    let outcome = match &declared {
        Some(d) => check_output(f.op, inputs, d),
        None => infer_shapes(f.op, inputs).map(|_| ()),
    };
    match outcome {
        Ok(()) if declared.is_none() => cx.at(
            f.at,
            RuleId::TosaShapeUnknown,
            format!("{}: the result type is not shaped, so its shape cannot be checked", f.op),
        ),
        Ok(()) => {}
        Err(e) => {
            let Some(rule) = rule_of(&e) else { return };
            let message = match &e.kind {
                ShapeErrorKind::ArgKind { index, name, .. } => {
                    format!(
                        "{}: operand {index} ({name}) has no shape or value in the module; shape rules not checked",
                        f.op
                    )
                }
                _ => e.to_string(),
            };
            cx.at(f.at, rule, message);
        }
    }
}

//! One TOSA instruction: resolving its operands by their catalogue forms,
//! choosing its type row, checking its shapes and level limits, and running it.

use super::ctx::{Ctx, Operand};
use super::dispatch;
use super::error::ExecError;
use super::graph::{Value, Walker};
use super::interface::tensor_of;
use super::level;
use super::operands;
use crate::cells::{OperandView, OperatorFacts};
use spvgraph_ir::analysis::Type;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{AccType, Form, ResizeMode, ResultKind, RowQualifier, ShapeArg, ShapeInputs, TosaOp, TypeRow};
use spvgraph_ir::{Id, Inst};
use std::collections::HashMap;

/// Runs one TOSA instruction.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    w: &Walker<'_, '_>,
    index: usize,
    op: TosaOp,
    ty: Id,
    result: Id,
    args: &[Id],
    values: &HashMap<Id, Value<'_>>,
    consts: &HashMap<Id, TensorData>,
) -> Result<Vec<TensorData>, ExecError> {
    let a = &w.a;
    let spec = op.spec();
    if !spec.accepts_operand_count(args.len()) {
        return Err(w.invalid(index, format!("{op} takes {} operands, found {}", spec.operands.len(), args.len())));
    }
    let mut resolved: Vec<Operand<'_>> = Vec::with_capacity(args.len());
    let mut elems: Vec<Option<ElemType>> = Vec::with_capacity(args.len());
    let mut shape_args = Vec::with_capacity(args.len());
    for (i, &arg) in args.iter().enumerate() {
        let Some(ospec) = spec.operand(i) else { continue };
        let name = ospec.name;
        let bad = |why: &str| w.invalid(index, format!("{op} operand {i} ({name}, {arg}): {why}"));
        let tensor = match values.get(&arg) {
            Some(Value::Tensor(t)) => Some(t.as_ref()),
            Some(Value::Composite(_)) => return Err(bad("is a composite, not a tensor")),
            None => consts.get(&arg),
        };
        if ospec.role.must_be_constant() && !a.def(arg).is_some_and(Inst::is_constant) {
            return Err(bad("must come from a constant instruction"));
        }
        let (operand, elem, shape_arg) = match ospec.form {
            Form::Tensor { .. } | Form::ConstTensor { .. } => {
                let t = tensor.ok_or_else(|| bad("is not a tensor defined before use in this graph"))?;
                (Operand::Tensor(t), Some(t.elem()), ShapeArg::Tensor(dims_u32(t.shape())))
            }
            Form::I32Array { .. } => {
                let t = tensor.ok_or_else(|| bad("is not a rank-1 i32 tensor constant"))?;
                if t.shape().len() != 1 {
                    return Err(bad("must be a rank-1 tensor constant"));
                }
                let v: Vec<i64> = t.to_bits().into_iter().map(|b| i64::from(b as u32 as i32)).collect();
                (Operand::Ints(v.clone()), Some(t.elem()), ShapeArg::Ints(v))
            }
            Form::EnumConst(kind) => {
                let (_, v) = operands::scalar(a, arg).ok_or_else(|| bad("is not a scalar constant"))?;
                if !u32::try_from(v).is_ok_and(|v| kind.is_valid(v)) {
                    return Err(bad(&format!("{v} is not a valid {}", kind.tosa_name())));
                }
                (Operand::Int(v as i64), operands::scalar_elem(a, arg), ShapeArg::Opaque)
            }
            Form::AxisConst { .. } => {
                let (_, v) = operands::scalar(a, arg).ok_or_else(|| bad("is not a scalar constant"))?;
                let axis = i64::from(v as u32 as i32);
                (Operand::Int(axis), operands::scalar_elem(a, arg), ShapeArg::Ints(vec![axis]))
            }
            Form::BoolConst => {
                let (_, v) = operands::scalar(a, arg).ok_or_else(|| bad("is not a bool constant"))?;
                (Operand::Bool(v != 0), operands::scalar_elem(a, arg), ShapeArg::Bool(v != 0))
            }
            Form::ScalarConst { .. } => {
                let (_, v) = operands::scalar(a, arg).ok_or_else(|| bad("is not a scalar constant"))?;
                (Operand::Scalar(v), operands::scalar_elem(a, arg), ShapeArg::Opaque)
            }
        };
        resolved.push(operand);
        elems.push(elem);
        shape_args.push(shape_arg);
    }
    // Result types.
    let result_types: Vec<Id> = match (spec.result.kind, a.ty(ty)) {
        (ResultKind::Tensor, Some(Type::Tensor(_))) => vec![ty],
        (ResultKind::RealImagStruct, Some(Type::Struct(m))) if m.len() == 2 => m,
        _ => return Err(w.invalid(index, format!("{op}: result type {ty} has the wrong kind"))),
    };
    let mut out_shapes = Vec::new();
    let mut out_elems = Vec::new();
    for &rt in &result_types {
        let (elem, shape) = tensor_of(a, rt)
            .ok_or_else(|| w.invalid(index, format!("{op}: result type {rt} must be a shaped tensor type")))?;
        out_elems.push(Some(elem));
        out_shapes.push(shape);
    }
    let row = type_row(op, &elems, &out_elems, &resolved).map_err(|m| w.invalid(index, m))?;
    if let Some(trace) = w.trace {
        let views: Vec<OperandView<'_>> = resolved
            .iter()
            .zip(&elems)
            .map(|(o, e)| match o {
                Operand::Tensor(t) => OperandView::Tensor(t),
                Operand::Ints(v) => OperandView::Ints(v),
                Operand::Int(v) => OperandView::Int(*v),
                Operand::Bool(b) => OperandView::Bool(*b),
                Operand::Scalar(bits) => OperandView::Scalar(*bits, *e),
            })
            .collect();
        let row_index = spec.type_rows.iter().position(|r| std::ptr::eq(r, row)).unwrap_or(usize::MAX);
        trace.borrow_mut().push(OperatorFacts::classify(result, op, row_index, &views));
    }
    let declared: Vec<Vec<u32>> = out_shapes.iter().map(|s| dims_u32(s)).collect();
    let inputs = ShapeInputs { args: shape_args };
    spvgraph_ir::tosa::check_output(op, &inputs, &declared).map_err(|e| w.invalid(index, e.to_string()))?;
    let results: Vec<(Vec<u32>, ElemType)> =
        declared.iter().zip(&out_elems).filter_map(|(s, e)| Some((s.clone(), (*e)?))).collect();
    level::check(w.level, op, &inputs, &elems, &results).map_err(|e| w.op_error(index, op, result, e))?;
    let cx = Ctx { op, spec, types: row.types, operands: resolved, out_shapes: out_shapes.clone() };
    let outs = dispatch::run(&cx).map_err(|e| w.op_error(index, op, result, e))?;
    for (k, t) in outs.iter().enumerate() {
        let want = (out_elems.get(k).copied().flatten(), out_shapes.get(k));
        if want != (Some(t.elem()), Some(&t.shape().to_vec())) {
            return Err(ExecError::Internal(format!(
                "{op} {result}: the executor produced {} {:?} for a declared {:?} {:?}",
                t.elem(),
                t.shape(),
                want.0,
                want.1
            )));
        }
    }
    Ok(outs)
}

fn dims_u32(shape: &[usize]) -> Vec<u32> {
    shape.iter().map(|&d| u32::try_from(d).unwrap_or(u32::MAX)).collect()
}

/// The catalogue row matching the instruction's element types and qualifier.
fn type_row(
    op: TosaOp,
    operand_elems: &[Option<ElemType>],
    result_elems: &[Option<ElemType>],
    operands: &[Operand<'_>],
) -> Result<&'static TypeRow, String> {
    let spec = op.spec();
    let slots = spec.slot_types(operand_elems, result_elems).map_err(|e| e.to_string())?;
    let types: Vec<ElemType> = slots
        .iter()
        .enumerate()
        .map(|(i, s)| {
            s.ok_or_else(|| format!("{op}: type slot {} is not determined", spec.slots.get(i).unwrap_or(&"?")))
        })
        .collect::<Result<_, _>>()?;
    let qualifier = match spec.qualifier_operand() {
        None => RowQualifier::Any,
        Some(q) => {
            let name = spec.operand(q).map_or("", |o| o.name);
            match (name, operands.get(q)) {
                ("acc_type", Some(Operand::Int(v))) => {
                    RowQualifier::AccType(u32::try_from(*v).ok().and_then(AccType::from_u32).ok_or("bad acc_type")?)
                }
                ("mode", Some(Operand::Int(v))) => {
                    RowQualifier::Mode(u32::try_from(*v).ok().and_then(ResizeMode::from_u32).ok_or("bad mode")?)
                }
                ("scale32", Some(Operand::Bool(b))) => RowQualifier::Scale32(*b),
                _ => return Err(format!("{op}: cannot read the type-row qualifier {name}")),
            }
        }
    };
    spec.find_row(&types, qualifier).ok_or_else(|| {
        let named: Vec<String> = spec.slots.iter().zip(&types).map(|(s, t)| format!("{s}={t}")).collect();
        let q = match qualifier {
            RowQualifier::Any => String::new(),
            RowQualifier::AccType(a) => format!(" with acc_type {a}"),
            RowQualifier::Mode(m) => format!(" with mode {m}"),
            RowQualifier::Scale32(s) => format!(" with scale32 {s}"),
        };
        format!("{op}: ({}){q} is not a supported type combination", named.join(", "))
    })
}

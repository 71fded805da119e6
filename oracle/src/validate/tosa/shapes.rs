//! Shapes: feeds what the module says into the catalogue's shape inference
//! (`infer_shapes` / `check_output`) and turns its errors into rules.

use super::super::context::Cx;
use super::operands::as_i32;
use super::Facts;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::{check_output, infer_shapes, Form, ShapeArg, ShapeErrorKind, ShapeInputs};

/// The shape-inference view of an instruction's operands (`Opaque` where a
/// shape or value is not in the module), written into `inputs`: its vectors
/// are reused where an argument keeps its kind from the last instruction.
pub fn fill_inputs(cx: &Cx<'_>, f: &Facts, inputs: &mut ShapeInputs) {
    let spec = f.op.spec();
    inputs.args.truncate(f.operands.len());
    inputs.args.resize(f.operands.len(), ShapeArg::Opaque);
    for (k, (o, slot)) in f.operands.iter().zip(inputs.args.iter_mut()).enumerate() {
        let Some(ospec) = spec.operand(k) else {
            *slot = ShapeArg::Opaque;
            continue;
        };
        match ospec.form {
            Form::Tensor { .. } | Form::ConstTensor { .. } => match o.shape.and_then(|t| cx.tensor_dims(t)) {
                // Every entry fits a u32 (`tensor_dims` says so).
                Some(dims) => set_tensor(slot, dims.iter().map(|&d| d as u32)),
                None => *slot = ShapeArg::Opaque,
            },
            Form::I32Array { .. } | Form::AxisConst { .. } => match f.bits(o) {
                Some(bits) => set_ints(slot, bits.iter().map(|&b| as_i32(b))),
                None => *slot = ShapeArg::Opaque,
            },
            Form::BoolConst => *slot = f.first(o).map_or(ShapeArg::Opaque, |b| ShapeArg::Bool(b != 0)),
            Form::EnumConst(_) | Form::ScalarConst { .. } => *slot = ShapeArg::Opaque,
        }
    }
}

fn set_tensor(slot: &mut ShapeArg, dims: impl Iterator<Item = u32>) {
    match slot {
        ShapeArg::Tensor(v) => {
            v.clear();
            v.extend(dims);
        }
        _ => *slot = ShapeArg::Tensor(dims.collect()),
    }
}

fn set_ints(slot: &mut ShapeArg, values: impl Iterator<Item = i64>) {
    match slot {
        ShapeArg::Ints(v) => {
            v.clear();
            v.extend(values);
        }
        _ => *slot = ShapeArg::Ints(values.collect()),
    }
}

/// The declared result shapes, into `declared` (one entry per result; the
/// entry of a result without a readable shape is left empty and unused).
pub fn fill_declared(cx: &Cx<'_>, f: &Facts, declared: &mut Vec<Vec<u32>>) {
    declared.truncate(f.results.len());
    declared.resize_with(f.results.len(), Vec::new);
    for (r, d) in f.results.iter().zip(declared.iter_mut()) {
        d.clear();
        if let Some(dims) = r.shape.and_then(|t| cx.tensor_dims(t)) {
            d.extend(dims.iter().map(|&x| x as u32));
        }
    }
}

/// The declared shape of result `j`, when it has one.
pub fn declared_shape<'a>(f: &Facts, declared: &'a [Vec<u32>], j: usize) -> Option<&'a [u32]> {
    f.results.get(j)?.shape?;
    declared.get(j).map(Vec::as_slice)
}

/// Checks the shapes of one well-formed instruction against the declared
/// result shapes (see [`fill_declared`]).
pub fn check(cx: &mut Cx<'_>, f: &Facts, inputs: &ShapeInputs, declared: &[Vec<u32>]) {
    if !f.results_ok {
        return;
    }
    let n = f.results.len();
    let all_declared = f.results.iter().all(|r| r.shape.is_some());
    let outcome = match declared.get(..n) {
        Some(d) if all_declared => check_output(f.op, inputs, d),
        _ => infer_shapes(f.op, inputs).map(|_| ()),
    };
    match outcome {
        Ok(()) if !all_declared => cx.at(
            f.at,
            RuleId::TosaShapeUnknown,
            format_args!("{}: the result type is not shaped, so its shape cannot be checked", f.op),
        ),
        Ok(()) => {}
        Err(e) => {
            let Some(rule) = e.kind.rule() else { return };
            let message = match &e.kind {
                ShapeErrorKind::ArgKind { index, name, .. } => cx.text(format_args!(
                    "{}: operand {index} ({name}) has no shape or value in the module; shape rules not checked",
                    f.op
                )),
                _ => cx.text(format_args!("{e}")),
            };
            cx.at(f.at, rule, message);
        }
    }
}

//! Shapes through a graph: what the catalogue's shape rules need to know
//! about an instruction's operands, and re-inferring every result type of a
//! graph after its inputs, constants or attributes changed.

use super::candidate::Candidate;
use super::graph;
use crate::analysis::Analysis;
use crate::decls;
use crate::inst::{Id, Inst};
use crate::tosa::{infer_shapes, Form, ShapeArg, ShapeInputs, TosaOp};
use spirv::StorageClass;
use std::collections::HashMap;

/// Most elements read from a constant for shape purposes.
const CONST_LIMIT: u64 = 1 << 16;

/// Reads an i32 stored in the low bits of a constant element.
fn as_i32(bits: u64) -> i64 {
    i64::from(bits as u32 as i32)
}

/// The shape-rule view of an instruction's operands; `shape_of` gives the
/// (possibly new) shape of a tensor value.
pub fn shape_inputs(
    a: &Analysis<'_>,
    op: TosaOp,
    args: &[Id],
    shape_of: &dyn Fn(Id) -> Option<Vec<u32>>,
) -> ShapeInputs {
    let spec = op.spec();
    let mut out = ShapeInputs::new();
    for (k, &arg) in args.iter().enumerate() {
        let Some(o) = spec.operand(k) else {
            out.args.push(ShapeArg::Opaque);
            continue;
        };
        let sa = match o.form {
            Form::Tensor { .. } | Form::ConstTensor { .. } => shape_of(arg).map_or(ShapeArg::Opaque, ShapeArg::Tensor),
            Form::AxisConst { .. } => a.const_uint(arg).map_or(ShapeArg::Opaque, |v| ShapeArg::Ints(vec![as_i32(v)])),
            Form::I32Array { .. } => a
                .const_tensor_bits(arg, CONST_LIMIT)
                .map_or(ShapeArg::Opaque, |b| ShapeArg::Ints(b.into_iter().map(as_i32).collect())),
            Form::BoolConst => a
                .const_tensor_bits(arg, 1)
                .map_or(ShapeArg::Opaque, |b| ShapeArg::Bool(b.first().copied().unwrap_or(0) != 0)),
            Form::EnumConst(_) | Form::ScalarConst { .. } => ShapeArg::Opaque,
        };
        out.args.push(sa);
    }
    out
}

/// The declared shape of a value.
pub fn declared_shape(a: &Analysis<'_>, value: Id) -> Option<Vec<u32>> {
    let ty = a.type_of(value)?;
    let shape = a.tensor_type(ty)?.shape?;
    shape.into_iter().map(|d| u32::try_from(d).ok()).collect()
}

/// Re-infers every TOSA result shape of graph `g` in order and retypes the
/// results (and the graph's outputs, with their interface variables) whose
/// shape changed. `None` when a shape rule no longer holds or a changed
/// shape reaches something this cannot retype (struct results, arrays).
pub fn retype_graph(c: &mut Candidate, g: Id) -> Option<()> {
    let (new_results, new_outputs) = {
        let a = Analysis::new(&c.module);
        let view = a.graph(g)?.clone();
        let mut shapes: HashMap<Id, Vec<u32>> = HashMap::new();
        let mut new_results: Vec<(usize, Vec<u32>)> = Vec::new();
        for &i in &view.body {
            let Some(Inst::Tosa { ty, result, op, args, .. }) = c.module.insts.get(i) else {
                if let Some(Inst::CompositeExtract { composite, .. }) = c.module.insts.get(i) {
                    if shapes.contains_key(composite) {
                        return None;
                    }
                }
                continue;
            };
            let shape_of = |v: Id| shapes.get(&v).cloned().or_else(|| declared_shape(&a, v));
            let inputs = shape_inputs(&a, *op, args, &shape_of);
            let any_changed = args.iter().any(|x| shapes.contains_key(x));
            let inferred = match infer_shapes(*op, &inputs) {
                Ok(s) => s,
                Err(_) if !any_changed => continue,
                Err(_) => return None,
            };
            match a.tensor_type(*ty) {
                Some(t) => {
                    let declared: Option<Vec<u32>> =
                        t.shape.and_then(|s| s.into_iter().map(|d| u32::try_from(d).ok()).collect());
                    let [want] = inferred.as_slice() else { return None };
                    if declared.as_ref() != Some(want) {
                        shapes.insert(*result, want.clone());
                        new_results.push((i, want.clone()));
                    }
                }
                // Struct results (FFT2D, RFFT2D): only if nothing changed.
                None => {
                    if any_changed {
                        return None;
                    }
                }
            }
        }
        // Every output whose value's shape is not the graph type's (a
        // changed result, or a user rewired to a value of another shape).
        let declared_outputs = match a.ty(view.ty) {
            Some(crate::analysis::Type::Graph { outputs, .. }) => outputs,
            _ => return None,
        };
        let mut new_outputs: Vec<(u32, Vec<u32>)> = Vec::new();
        for &i in &view.outputs {
            if let Some(Inst::GraphSetOutput { value, output_index, element_index }) = c.module.insts.get(i) {
                let Some(now) = shapes.get(value).cloned().or_else(|| declared_shape(&a, *value)) else { continue };
                let k = u32::try_from(a.const_uint(*output_index)?).ok()?;
                let ty = *declared_outputs.get(k as usize)?;
                let was: Option<Vec<u32>> = a
                    .tensor_type(ty)
                    .and_then(|t| t.shape)
                    .and_then(|s| s.into_iter().map(|d| u32::try_from(d).ok()).collect());
                if was.as_ref() != Some(&now) && was.is_some() {
                    if element_index.is_some() {
                        return None;
                    }
                    if !new_outputs.iter().any(|(j, _)| *j == k) {
                        new_outputs.push((k, now));
                    }
                }
            }
        }
        (new_results, new_outputs)
    };
    if new_results.is_empty() && new_outputs.is_empty() {
        return Some(());
    }
    // Declaring types moves the graph: identify results by id, not position.
    let mut retype: Vec<(Id, Id)> = Vec::new();
    let originals: Vec<(Id, Id)> = new_results
        .iter()
        .filter_map(|(i, _)| match c.module.insts.get(*i) {
            Some(Inst::Tosa { ty, result, .. }) => Some((*result, *ty)),
            _ => None,
        })
        .collect();
    for ((result, old_ty), (_, shape)) in originals.iter().zip(&new_results) {
        let t = decls::reshaped_tensor_type(&mut c.module, *old_ty, shape)?;
        retype.push((*result, t));
    }
    let map: HashMap<Id, Id> = retype.into_iter().collect();
    for inst in &mut c.module.insts {
        if let Inst::Tosa { ty, result, .. } = inst {
            if let Some(&t) = map.get(result) {
                *ty = t;
            }
        }
    }
    if !new_outputs.is_empty() {
        let (inputs, mut outputs) = graph::io_types(&c.module, g)?;
        for (k, shape) in &new_outputs {
            let old = *outputs.get(*k as usize)?;
            let t = decls::reshaped_tensor_type(&mut c.module, old, shape)?;
            *outputs.get_mut(*k as usize)? = t;
            retype_interface(c, g, inputs.len() + *k as usize, t)?;
        }
        graph::set_io_types(&mut c.module, g, &inputs, &outputs);
    }
    Some(())
}

/// Points the interface variable at `position` of every entry point of
/// graph `g` at type `ty`.
pub fn retype_interface(c: &mut Candidate, g: Id, position: usize, ty: Id) -> Option<()> {
    let vars: Vec<Id> = c
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::GraphEntryPoint { graph, interface, .. } if *graph == g => interface.get(position).copied(),
            _ => None,
        })
        .collect();
    if vars.is_empty() {
        return Some(());
    }
    let ptr = decls::pointer_type(&mut c.module, StorageClass::UniformConstant, ty);
    for inst in &mut c.module.insts {
        if let Inst::Variable { ty: t, result, .. } = inst {
            if vars.contains(result) {
                *t = ptr;
            }
        }
    }
    Some(())
}

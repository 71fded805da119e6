//! Carrying a change through the graph: each node in order, its rule
//! checked with the new operand shapes, its attribute re-fitted, or another
//! input made to follow.

use super::origin::{graph_inputs, ints_named, tensor_named};
use super::{rebuildable_constant, shapes, Attrs, Leaf, Leaves, Outcome, Stop, MAX_DIM, MAX_TRACE};
use crate::prng::SplitMix64;
use spvgraph_ir::analysis::{Analysis, GraphView};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::{infer_shapes, Form, ShapeArg, ShapeInputs, ShapeRule, TosaOp};
use std::collections::HashMap;

/// The shape-rule view of node `args` with `shape_of` for tensor operands.
pub(super) fn node_inputs(a: &Analysis<'_>, op: TosaOp, args: &[Id], new: &HashMap<Id, Vec<u32>>) -> ShapeInputs {
    let shape_of = |v: Id| new.get(&v).cloned().or_else(|| shapes::declared_shape(a, v));
    shapes::shape_inputs(a, op, args, &shape_of)
}

/// One pass over the graph in order with the inputs changed as `inputs`
/// and the seed attributes set; `None` when a node's rule cannot be met.
pub(super) fn plan(
    a: &Analysis<'_>,
    view: &GraphView,
    leaves: &Leaves,
    seed_attrs: &Attrs,
    rng: &mut SplitMix64,
) -> Result<Outcome, Stop> {
    let mut new: HashMap<Id, Vec<u32>> = HashMap::new();
    for (k, value, _) in graph_inputs(a, view) {
        if let Some(s) = leaves.get(&Leaf::Input(k)) {
            new.insert(value, s.clone());
        }
    }
    for (leaf, s) in leaves {
        if let Leaf::Constant(v) = leaf {
            new.insert(*v, s.clone());
        }
    }
    let mut attrs = seed_attrs.clone();
    for &i in &view.body {
        let (ty, result, op, args) = match a.module.insts.get(i) {
            Some(Inst::Tosa { ty, result, op, args, .. }) => (*ty, *result, *op, args),
            // A struct result (FFT2D) whose parts would change.
            Some(Inst::CompositeExtract { composite, .. }) if new.contains_key(composite) => {
                return Err(Stop::Rule(TosaOp::Fft2d))
            }
            _ => continue,
        };
        let seeded: Vec<usize> = attrs.keys().filter(|(n, _)| *n == result).map(|&(_, k)| k).collect();
        if seeded.is_empty() && !args.iter().any(|x| new.contains_key(x)) {
            continue;
        }
        let mut si = node_inputs(a, op, args, &new);
        for k in seeded {
            if let (Some(slot), Some(v)) = (si.args.get_mut(k), attrs.get(&(result, k))) {
                *slot = ShapeArg::Ints(v.clone());
            }
        }
        let stop = Stop::Rule(op);
        let out = match infer_shapes(op, &si) {
            Ok(out) => out,
            Err(_) => match refit(op, &si, rng) {
                Some(fixes) => {
                    for (k, v) in fixes {
                        *si.args.get_mut(k).ok_or(stop)? = ShapeArg::Ints(v.clone());
                        attrs.insert((result, k), v);
                    }
                    infer_shapes(op, &si).map_err(|_| stop)?
                }
                None => {
                    let (leaf, shape) = follower(a, view, op, args, &new).ok_or(stop)?;
                    return Ok(Outcome::Follow { leaf, shape });
                }
            },
        };
        // Struct results (FFT2D, RFFT2D) are not retyped.
        let [shape] = out.as_slice() else { return Err(stop) };
        a.tensor_type(ty).ok_or(stop)?;
        if shapes::declared_shape(a, result).as_ref() != Some(shape) {
            if shape.iter().any(|&d| d > MAX_DIM * MAX_DIM) {
                return Err(stop);
            }
            new.insert(result, shape.clone());
        }
    }
    for &i in &view.outputs {
        if let Some(Inst::GraphSetOutput { value, element_index: Some(_), .. }) = a.module.insts.get(i) {
            if new.contains_key(value) {
                return Err(Stop::ArrayOutput);
            }
        }
    }
    Ok(Outcome::Consistent { attrs, shapes: new })
}

/// New attribute values that make `op`'s rule hold again after its input
/// changed: `(operand index, values)` for each operand to rewrite.
pub(super) fn refit(op: TosaOp, si: &ShapeInputs, rng: &mut SplitMix64) -> Option<Vec<(usize, Vec<i64>)>> {
    let input = tensor_named(op, si, "input1")?;
    let rank = input.len();
    match op.spec().shape {
        ShapeRule::Reshape => {
            let (k, shape) = ints_named(op, si, "shape")?;
            let count = input.iter().try_fold(1i64, |acc, &d| acc.checked_mul(i64::from(d)))?;
            let total = shape.iter().try_fold(1i64, |acc, &d| if d >= 1 { acc.checked_mul(d) } else { None })?;
            // One dimension absorbs the new count; otherwise the last takes all of it.
            let fits: Vec<usize> = (0..shape.len()).filter(|&d| count % (total / shape[d]) == 0).collect();
            let mut v = shape.to_vec();
            match fits.get(rng.below(fits.len().max(1) as u64) as usize) {
                Some(&d) => *v.get_mut(d)? = count / (total / shape[d]),
                None => {
                    v.iter_mut().for_each(|x| *x = 1);
                    *v.last_mut()? = count;
                }
            }
            Some(vec![(k, v)])
        }
        ShapeRule::Slice => {
            let (ks, start) = ints_named(op, si, "start")?;
            let (kz, size) = ints_named(op, si, "size")?;
            let mut st = Vec::with_capacity(rank);
            let mut sz = Vec::with_capacity(rank);
            for (d, &n) in input.iter().enumerate() {
                let n = i64::from(n);
                let s = start.get(d).copied().unwrap_or(0).clamp(0, n - 1);
                st.push(s);
                sz.push(size.get(d).copied().unwrap_or(n - s).clamp(1, n - s));
            }
            Some(vec![(ks, st), (kz, sz)])
        }
        ShapeRule::Tile => {
            let (k, multiples) = ints_named(op, si, "multiples")?;
            Some(vec![(k, fit(multiples, rank, 1))])
        }
        ShapeRule::Pad => {
            let (k, padding) = ints_named(op, si, "padding")?;
            Some(vec![(k, fit(padding, 2 * rank, 0))])
        }
        ShapeRule::Transpose => {
            let (k, perms) = ints_named(op, si, "perms")?;
            let r = rank as i64;
            let mut v: Vec<i64> = perms.iter().copied().filter(|&p| (0..r).contains(&p)).collect();
            v.extend((0..r).filter(|p| !perms.contains(p)));
            Some(vec![(k, v)])
        }
        _ => None,
    }
}

/// `values` cut or extended with `fill` to `len` entries.
pub(super) fn fit(values: &[i64], len: usize, fill: i64) -> Vec<i64> {
    let mut v = values.to_vec();
    v.resize(len, fill);
    v
}

/// For a node whose rule failed: a graph input or constant that must change
/// with the changed operand, and the shape it must take.
pub(super) fn follower(
    a: &Analysis<'_>,
    view: &GraphView,
    op: TosaOp,
    args: &[Id],
    new: &HashMap<Id, Vec<u32>>,
) -> Option<(Leaf, Vec<u32>)> {
    let spec = op.spec();
    let tensor = |k: usize| matches!(spec.operand(k).map(|o| o.form), Some(Form::Tensor { .. }));
    let (x_old, x_new) = args
        .iter()
        .enumerate()
        .filter(|&(k, _)| tensor(k))
        .find_map(|(_, x)| Some((shapes::declared_shape(a, *x)?, new.get(x)?.clone())))?;
    let sources = graph_inputs(a, view);
    for (k, y) in args.iter().enumerate() {
        if !tensor(k) || new.contains_key(y) {
            continue;
        }
        let leaf = match source_input(a, &sources, *y) {
            Some(index) => Leaf::Input(index),
            None if rebuildable_constant(a, *y) => Leaf::Constant(*y),
            None => continue,
        };
        let y_old = shapes::declared_shape(a, *y)?;
        let Some(y_new) = follow_dims(&x_old, &x_new, &y_old) else { continue };
        if y_new != y_old {
            return Some((leaf, y_new));
        }
    }
    None
}

/// The graph input `value` has its shape from: itself, or through nodes
/// whose result has their first operand's shape.
pub(super) fn source_input(a: &Analysis<'_>, sources: &[(u32, Id, Vec<u32>)], value: Id) -> Option<u32> {
    let mut v = value;
    for _ in 0..MAX_TRACE {
        if let Some((k, _, _)) = sources.iter().find(|(_, r, _)| *r == v) {
            return Some(*k);
        }
        match a.def(v)? {
            Inst::Tosa { op, args, .. } if matches!(op.spec().shape, ShapeRule::Identity | ShapeRule::Table) => {
                v = *args.first()?;
            }
            _ => return None,
        }
    }
    None
}

/// The new shape of `y` when `x` went from `x_old` to `x_new`: all of it
/// if `y` had `x`'s shape, otherwise (same rank) each dimension `y` shared
/// with `x` follows it.
pub(super) fn follow_dims(x_old: &[u32], x_new: &[u32], y_old: &[u32]) -> Option<Vec<u32>> {
    if y_old == x_old {
        return Some(x_new.to_vec());
    }
    if x_old.len() != x_new.len() || y_old.len() != x_old.len() {
        return None;
    }
    Some(y_old.iter().zip(x_old.iter().zip(x_new)).map(|(&y, (&o, &n))| if y == o && o != n { n } else { y }).collect())
}

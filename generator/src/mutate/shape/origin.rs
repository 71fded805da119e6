//! Where a shape change starts: a graph input's dimension or rank, or the
//! shape-giving attribute of a RESHAPE, TILE, PAD or SLICE.

use super::plan::node_inputs;
use super::{shapes, Origin, MAX_DIM};
use crate::prng::SplitMix64;
use spvgraph_ir::analysis::{Analysis, GraphView};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::{infer_shapes, ShapeArg, ShapeInputs, ShapeRule, TosaOp, MAX_RANK};
use std::collections::HashMap;

/// Graph input `index` read by a non-array `OpGraphInputARM` with a known
/// shape, as `(index, reading value, shape)`.
pub(super) fn graph_inputs(a: &Analysis<'_>, view: &GraphView) -> Vec<(u32, Id, Vec<u32>)> {
    view.inputs
        .iter()
        .filter_map(|&i| match a.module.insts.get(i) {
            Some(Inst::GraphInput { result, input_index, element_index: None, .. }) => {
                let k = u32::try_from(a.const_uint(*input_index)?).ok()?;
                Some((k, *result, shapes::declared_shape(a, *result)?))
            }
            _ => None,
        })
        .collect()
}

pub(super) fn input_origin(a: &Analysis<'_>, view: &GraphView, rng: &mut SplitMix64) -> Option<Origin> {
    let candidates = graph_inputs(a, view);
    let (index, value, from) = candidates.get(rng.below(candidates.len() as u64) as usize)?.clone();
    let to = new_dims(&from, rng)?;
    Some(Origin::Input { index, value, from, to })
}

/// `shape` with one dimension resized, or a unit dimension added or removed.
pub(super) fn new_dims(shape: &[u32], rng: &mut SplitMix64) -> Option<Vec<u32>> {
    let mut out = shape.to_vec();
    let rank = shape.len();
    match rng.below(6) {
        0 if rank < MAX_RANK as usize => {
            out.insert(rng.below(rank as u64 + 1) as usize, 1);
            return Some(out);
        }
        1 if rank > 1 && shape.contains(&1) => {
            let units: Vec<usize> = (0..rank).filter(|&d| shape[d] == 1).collect();
            out.remove(*units.get(rng.below(units.len() as u64) as usize)?);
            return Some(out);
        }
        _ => {}
    }
    let d = rng.below(rank as u64) as usize;
    let old = *shape.get(d)?;
    let options: Vec<u32> = [1, 2, 3, 4, old.saturating_add(1), old.saturating_sub(1), old.saturating_mul(2), old / 2]
        .into_iter()
        .filter(|&v| (1..=MAX_DIM).contains(&v) && v != old)
        .collect();
    *out.get_mut(d)? = *options.get(rng.below(options.len() as u64) as usize)?;
    Some(out)
}

pub(super) fn attribute_origin(a: &Analysis<'_>, view: &GraphView, rng: &mut SplitMix64) -> Option<Origin> {
    let none = HashMap::new();
    let mut sites: Vec<(Id, TosaOp, ShapeInputs)> = Vec::new();
    for &i in &view.body {
        let Some(Inst::Tosa { result, op, args, .. }) = a.module.insts.get(i) else { continue };
        if matches!(op.spec().shape, ShapeRule::Reshape | ShapeRule::Tile | ShapeRule::Pad | ShapeRule::Slice) {
            let inputs = node_inputs(a, *op, args, &none);
            if infer_shapes(*op, &inputs).is_ok() {
                sites.push((*result, *op, inputs));
            }
        }
    }
    let (node, op, inputs) = sites.get(rng.below(sites.len() as u64) as usize)?;
    let (operand, values) = new_attribute(*op, inputs, rng)?;
    Some(Origin::Attribute { node: *node, operand, values })
}

/// The values of integer operand `name`, with its index.
pub(super) fn ints_named<'i>(op: TosaOp, inputs: &'i ShapeInputs, name: &str) -> Option<(usize, &'i [i64])> {
    let (k, _) = op.spec().operand_named(name)?;
    match inputs.args.get(k)? {
        ShapeArg::Ints(v) => Some((k, v)),
        _ => None,
    }
}

pub(super) fn tensor_named<'i>(op: TosaOp, inputs: &'i ShapeInputs, name: &str) -> Option<&'i [u32]> {
    let (k, _) = op.spec().operand_named(name)?;
    match inputs.args.get(k)? {
        ShapeArg::Tensor(s) => Some(s),
        _ => None,
    }
}

/// A new value for the shape-giving attribute of a RESHAPE, TILE, PAD or
/// SLICE whose rule holds: `(operand index, values)`.
pub(super) fn new_attribute(op: TosaOp, inputs: &ShapeInputs, rng: &mut SplitMix64) -> Option<(usize, Vec<i64>)> {
    let pick = |n: usize, rng: &mut SplitMix64| rng.below(n as u64) as usize;
    match op.spec().shape {
        ShapeRule::Reshape => {
            let (k, shape) = ints_named(op, inputs, "shape")?;
            Some((k, refactor(shape, rng)?))
        }
        ShapeRule::Tile => {
            let (k, multiples) = ints_named(op, inputs, "multiples")?;
            Some((k, toggle_one(multiples, 1, rng)?))
        }
        ShapeRule::Pad => {
            let (k, padding) = ints_named(op, inputs, "padding")?;
            Some((k, toggle_one(padding, 0, rng)?))
        }
        ShapeRule::Slice => {
            let input = tensor_named(op, inputs, "input1")?;
            let (_, start) = ints_named(op, inputs, "start")?;
            let (k, size) = ints_named(op, inputs, "size")?;
            // Dimensions where the window has room for another size.
            let room = |d: usize| Some(i64::from(*input.get(d)?) - *start.get(d)?);
            let dims: Vec<usize> = (0..input.len()).filter(|&d| room(d).is_some_and(|r| r > 1)).collect();
            let d = *dims.get(pick(dims.len(), rng))?;
            // Any size in 1..=room but the current one (room may be huge).
            let old = *size.get(d)?;
            let drawn = 1 + rng.below(u64::try_from(room(d)? - 1).ok()?) as i64;
            let mut v = size.to_vec();
            *v.get_mut(d)? = if drawn >= old { drawn + 1 } else { drawn };
            Some((k, v))
        }
        _ => None,
    }
}

/// `values` with one entry moved off `neutral` (to `neutral` + 1 or + 2),
/// or back to it when it was elsewhere: a TILE multiple of 1 or a PAD of 0
/// is where a change of the output shape starts or ends.
pub(super) fn toggle_one(values: &[i64], neutral: i64, rng: &mut SplitMix64) -> Option<Vec<i64>> {
    let mut v = values.to_vec();
    let at = rng.below(v.len() as u64) as usize;
    let slot = v.get_mut(at)?;
    *slot = if *slot == neutral { neutral + 1 + rng.below(2) as i64 } else { neutral };
    Some(v)
}

/// Another shape with the same element count as `shape`: a dimension split
/// in two, two neighbours merged, or a prime factor moved between two
/// dimensions.
pub(super) fn refactor(shape: &[i64], rng: &mut SplitMix64) -> Option<Vec<i64>> {
    if shape.iter().any(|&d| d < 1) {
        return None;
    }
    let rank = shape.len();
    let mut out = shape.to_vec();
    for _ in 0..4 {
        match rng.below(3) {
            0 if rank < MAX_RANK as usize => {
                let d = rng.below(rank as u64) as usize;
                let n = *shape.get(d)?;
                if let Some(f) = smallest_factor(n) {
                    out.splice(d..=d, [f, n / f]);
                    return Some(out);
                }
            }
            1 if rank > 1 => {
                let d = rng.below(rank as u64 - 1) as usize;
                let merged = shape.get(d)?.checked_mul(*shape.get(d + 1)?)?;
                out.splice(d..=d + 1, [merged]);
                return Some(out);
            }
            _ if rank > 1 => {
                let from = rng.below(rank as u64) as usize;
                let to = (from + 1 + rng.below(rank as u64 - 1) as usize) % rank;
                if let Some(f) = smallest_factor(*shape.get(from)?) {
                    *out.get_mut(from)? /= f;
                    *out.get_mut(to)? *= f;
                    return Some(out);
                }
            }
            _ => {}
        }
    }
    None
}

/// The smallest factor of `n` above 1 and below `n`.
pub(super) fn smallest_factor(n: i64) -> Option<i64> {
    (2..n).take_while(|f| f * f <= n).find(|f| n % f == 0)
}

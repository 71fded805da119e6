//! Mutations of the node list: a node duplicated, its operator replaced by
//! another of the same arity, or a one-operand node inserted on a value.

use super::{pick, tosa_indices};
use crate::prng::SplitMix64;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::{Form, TosaOp};
use spvgraph_ir::Module;
use std::collections::HashMap;
use std::sync::OnceLock;

fn fresh_id(m: &mut Module) -> Id {
    let id = Id(m.header.bound);
    m.header.bound += 1;
    id
}

/// Replaces `from` by `to` in the value operands of graph instructions at or
/// after `start` (TOSA operands and graph outputs); how many were replaced,
/// at most `limit`.
fn rewire(m: &mut Module, start: usize, from: Id, to: Id, limit: usize) -> usize {
    let mut n = 0;
    for inst in m.insts.iter_mut().skip(start) {
        let slots: Vec<&mut Id> = match inst {
            Inst::Tosa { args, .. } => args.iter_mut().filter(|a| **a == from).collect(),
            Inst::GraphSetOutput { value, .. } if *value == from => vec![value],
            _ => Vec::new(),
        };
        for s in slots {
            if n == limit {
                return n;
            }
            *s = to;
            n += 1;
        }
    }
    n
}

pub(super) fn duplicate_node(m: &mut Module, rng: &mut SplitMix64) -> bool {
    let Some(at) = pick(&tosa_indices(m), rng) else { return false };
    let Some(mut copy) = m.insts.get(at).cloned() else { return false };
    let Some(old) = copy.result_id() else { return false };
    let new = fresh_id(m);
    if let Some(r) = copy.result_id_mut() {
        *r = new;
    }
    m.insts.insert(at + 1, copy);
    if rng.chance(0.5) {
        rewire(m, at + 2, old, new, 1);
    }
    true
}

pub(super) fn replace_operator(m: &mut Module, rng: &mut SplitMix64) -> bool {
    let Some(at) = pick(&tosa_indices(m), rng) else { return false };
    let Some(Inst::Tosa { op, args, .. }) = m.insts.get_mut(at) else { return false };
    let same_arity: Vec<TosaOp> =
        TosaOp::ALL.into_iter().filter(|o| *o != *op && o.spec().operands.len() == args.len()).collect();
    let Some(other) = pick(&same_arity, rng) else { return false };
    *op = other;
    true
}

/// Operators with one operand, a tensor (ABS, CEIL, ... , IDENTITY).
pub(super) fn unary_ops() -> &'static [TosaOp] {
    static OPS: OnceLock<Vec<TosaOp>> = OnceLock::new();
    OPS.get_or_init(|| {
        TosaOp::ALL
            .into_iter()
            .filter(|o| matches!(o.spec().operands, [only] if matches!(only.form, Form::Tensor { .. })))
            .collect()
    })
}

pub(super) fn insert_node(m: &mut Module, types: &HashMap<Id, Id>, rng: &mut SplitMix64) -> bool {
    let Some(set) = m.insts.iter().find_map(|i| if let Inst::Tosa { set, .. } = i { Some(*set) } else { None }) else {
        return false;
    };
    // Values of a graph body: TOSA results, and graph inputs (the new node
    // then goes after the block's last input, where body instructions start).
    let values: Vec<usize> = m
        .insts
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i, Inst::Tosa { .. } | Inst::GraphInput { .. }))
        .map(|(k, _)| k)
        .collect();
    let Some(at) = pick(&values, rng) else { return false };
    let Some(x) = m.insts.get(at).and_then(Inst::result_id) else { return false };
    let Some(&ty) = types.get(&x) else { return false };
    let Some(op) = pick(unary_ops(), rng) else { return false };
    let mut pos = at + 1;
    while matches!(m.insts.get(pos), Some(Inst::GraphInput { .. })) {
        pos += 1;
    }
    let y = fresh_id(m);
    m.insts.insert(pos, Inst::Tosa { ty, result: y, set, op, args: vec![x] });
    rewire(m, pos + 1, x, y, usize::MAX);
    true
}

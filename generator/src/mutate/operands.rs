//! Mutations of a node's operands: two same-typed operands swapped, or an
//! operand that reads a constant (an attribute) pointed at another constant
//! of the same type.

use super::{pick, tosa_indices};
use crate::prng::SplitMix64;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::Module;
use std::collections::HashMap;

pub(super) fn swap_operands(m: &mut Module, types: &HashMap<Id, Id>, rng: &mut SplitMix64) -> bool {
    let Some(at) = pick(&tosa_indices(m), rng) else { return false };
    let Some(Inst::Tosa { args, .. }) = m.insts.get_mut(at) else { return false };
    let mut pairs = Vec::new();
    for i in 0..args.len() {
        for j in i + 1..args.len() {
            if args[i] != args[j] && types.get(&args[i]).is_some_and(|t| types.get(&args[j]) == Some(t)) {
                pairs.push((i, j));
            }
        }
    }
    let Some((i, j)) = pick(&pairs, rng) else { return false };
    args.swap(i, j);
    true
}

fn is_constant(i: &Inst) -> bool {
    matches!(
        i,
        Inst::Constant { .. }
            | Inst::ConstantTrue { .. }
            | Inst::ConstantFalse { .. }
            | Inst::ConstantComposite { .. }
            | Inst::ConstantCompositeReplicate { .. }
            | Inst::ConstantNull { .. }
            | Inst::GraphConstant { .. }
    )
}

pub(super) fn change_attribute(m: &mut Module, types: &HashMap<Id, Id>, rng: &mut SplitMix64) -> bool {
    let constants: Vec<(Id, Id)> =
        m.insts.iter().filter(|i| is_constant(i)).filter_map(|i| Some((i.result_id()?, i.result_type()?))).collect();
    let Some(at) = pick(&tosa_indices(m), rng) else { return false };
    let Some(Inst::Tosa { args, .. }) = m.insts.get_mut(at) else { return false };
    let slots: Vec<usize> = (0..args.len()).filter(|&k| constants.iter().any(|(c, _)| *c == args[k])).collect();
    let Some(k) = pick(&slots, rng) else { return false };
    let Some(ty) = types.get(&args[k]) else { return false };
    let others: Vec<Id> = constants.iter().filter(|(c, t)| t == ty && *c != args[k]).map(|(c, _)| *c).collect();
    let Some(other) = pick(&others, rng) else { return false };
    args[k] = other;
    true
}

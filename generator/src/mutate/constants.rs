//! Changing the value of a scalar constant: one off, a flipped bit, zero or
//! any value.

use super::pick;
use crate::prng::SplitMix64;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::Module;

pub(super) fn change_constant(m: &mut Module, rng: &mut SplitMix64) -> bool {
    let constants: Vec<usize> = m
        .insts
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i, Inst::Constant { value, spec: false, .. } if !value.is_empty()))
        .map(|(k, _)| k)
        .collect();
    let Some(at) = pick(&constants, rng) else { return false };
    let Some(Inst::Constant { value, .. }) = m.insts.get_mut(at) else { return false };
    let Some(w) = value.first_mut() else { return false };
    *w = match rng.below(5) {
        0 => w.wrapping_add(1),
        1 => w.wrapping_sub(1),
        2 => *w ^ (1 << rng.below(32)),
        3 => 0,
        _ => rng.next_u64() as u32,
    };
    true
}

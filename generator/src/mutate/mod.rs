//! A structure-aware mutator for graph modules (the model is wasm-mutate):
//! apply one semantic mutation to a module and keep the result only if a
//! validity check still accepts it (otherwise try another).
//!
//! Mutations ([`Mutation`]):
//! - swap two operands of a TOSA instruction that have the same type;
//! - change the value of a scalar constant;
//! - change an attribute: point a TOSA operand that reads a constant at
//!   another constant of the same type;
//! - duplicate a node (with a fresh result id; half the time one later use
//!   reads the duplicate);
//! - replace a node's operator with another taking as many operands;
//! - insert a node: a one-operand operator on a tensor value, whose later
//!   uses then read its result;
//! - change a shape consistently: a graph input's dimension or rank, or a
//!   RESHAPE/TILE/PAD/SLICE attribute, carried through every consumer by
//!   the shape rules ([`shape`]).
//!
//! [`network`] makes the neighbours of a real network: its data (inputs,
//! weights), its quantization parameters, one of the mutations above, or
//! the graph cut at an operator.
//!
//! The validity check is the caller's: the fuzz targets, the hunt and the
//! reducer pass the in-tree validator (`spvgraph_oracle::validate`), which
//! this crate does not depend on.

mod constants;
pub mod network;
mod nodes;
mod operands;
pub mod shape;
#[cfg(test)]
mod tests;

use crate::prng::SplitMix64;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::Module;
use std::collections::HashMap;

spvgraph_ir::enum_with_all! {
    /// One kind of semantic mutation.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Mutation {
        /// Swap two same-typed operands of a TOSA instruction.
        SwapOperands,
        /// Change a scalar `OpConstant`'s value.
        ChangeConstant,
        /// Read another constant of the same type as a TOSA operand.
        ChangeAttribute,
        /// Duplicate a TOSA instruction.
        DuplicateNode,
        /// Replace a TOSA instruction's operator with one of the same arity.
        ReplaceOperator,
        /// Insert a one-operand TOSA instruction on a tensor value.
        InsertNode,
        /// Change a shape and carry it through the graph by the shape rules.
        ChangeShape,
    }
    /// Every mutation.
    pub const ALL;
}

impl Mutation {
    /// The mutation's name in reports (`swap-operands`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Mutation::SwapOperands => "swap-operands",
            Mutation::ChangeConstant => "change-constant",
            Mutation::ChangeAttribute => "change-attribute",
            Mutation::DuplicateNode => "duplicate-node",
            Mutation::ReplaceOperator => "replace-operator",
            Mutation::InsertNode => "insert-node",
            Mutation::ChangeShape => "change-shape",
        }
    }
}

/// How many mutations [`mutate_valid`] tries before giving up.
pub const ATTEMPTS: usize = 16;

/// `data[..size]` mutated in place by one semantic mutation that `valid`
/// accepts; the new length, or `None` when the bytes do not decode as a
/// module `valid` accepts, no mutation applied within [`ATTEMPTS`], or the
/// result would not fit `max_size` (a fuzzer then falls back to byte
/// mutation).
pub fn mutate_bytes(
    data: &mut [u8],
    size: usize,
    max_size: usize,
    seed: u32,
    valid: &dyn Fn(&Module) -> bool,
) -> Option<usize> {
    let module = Module::decode_bytes(data.get(..size)?).ok()?;
    let mut rng = SplitMix64::new(u64::from(seed) ^ 0x5eed_5eed_0000_0000);
    let (mutated, _) = mutate_valid(&module, &mut rng, valid)?;
    let bytes = mutated.encode_bytes().ok()?;
    if bytes.len() > max_size.min(data.len()) {
        return None;
    }
    data.get_mut(..bytes.len())?.copy_from_slice(&bytes);
    Some(bytes.len())
}

/// One mutation of `module` that `valid` accepts, and which one it was;
/// `None` when `valid` rejects `module` itself or no attempt gave a module
/// it accepts.
pub fn mutate_valid(
    module: &Module,
    rng: &mut SplitMix64,
    valid: &dyn Fn(&Module) -> bool,
) -> Option<(Module, Mutation)> {
    if !valid(module) {
        return None;
    }
    for _ in 0..ATTEMPTS {
        let kind = Mutation::ALL[rng.below(Mutation::ALL.len() as u64) as usize];
        if let Some(m) = mutate(module, kind, rng) {
            if valid(&m) {
                return Some((m, kind));
            }
        }
    }
    None
}

/// Up to `count` distinct mutants of `module` that `valid` accepts, each one
/// mutation away from it, drawn from `seed` alone (the same seed gives the
/// same mutants): the neighbours the hunt runs around a finding.
pub fn neighbours(
    module: &Module,
    seed: u64,
    count: usize,
    valid: &dyn Fn(&Module) -> bool,
) -> Vec<(Module, Mutation)> {
    let mut rng = SplitMix64::new(seed ^ 0x6e65_6967_6862_6f72);
    let mut out: Vec<(Module, Mutation)> = Vec::new();
    // A few extra draws make up for mutations that land on a mutant already
    // drawn; a module with no applicable mutation stops early.
    for _ in 0..count.saturating_mul(2) {
        if out.len() == count {
            break;
        }
        let Some((m, kind)) = mutate_valid(module, &mut rng, valid) else { break };
        if !out.iter().any(|(o, _)| *o == m) {
            out.push((m, kind));
        }
    }
    out
}

/// `module` with one mutation of kind `kind` applied (valid or not), or
/// `None` when the module has nothing it applies to or it changed nothing.
pub fn mutate(module: &Module, kind: Mutation, rng: &mut SplitMix64) -> Option<Module> {
    let mut m = module.clone();
    let types = result_types(&m);
    let done = match kind {
        Mutation::SwapOperands => operands::swap_operands(&mut m, &types, rng),
        Mutation::ChangeConstant => constants::change_constant(&mut m, rng),
        Mutation::ChangeAttribute => operands::change_attribute(&mut m, &types, rng),
        Mutation::DuplicateNode => nodes::duplicate_node(&mut m, rng),
        Mutation::ReplaceOperator => nodes::replace_operator(&mut m, rng),
        Mutation::InsertNode => nodes::insert_node(&mut m, &types, rng),
        Mutation::ChangeShape => match shape::change_shape(&m, rng) {
            Some((changed, _)) => {
                m = changed;
                true
            }
            None => false,
        },
    };
    // A mutation that lands on the same value (0 -> 0) is no mutation.
    (done && m != *module).then_some(m)
}

/// Result id -> result type id, for every typed result.
fn result_types(m: &Module) -> HashMap<Id, Id> {
    m.insts.iter().filter_map(|i| Some((i.result_id()?, i.result_type()?))).collect()
}

fn pick<T: Copy>(items: &[T], rng: &mut SplitMix64) -> Option<T> {
    items.get(rng.below(items.len() as u64) as usize).copied()
}

fn tosa_indices(m: &Module) -> Vec<usize> {
    m.insts.iter().enumerate().filter(|(_, i)| matches!(i, Inst::Tosa { .. })).map(|(k, _)| k).collect()
}

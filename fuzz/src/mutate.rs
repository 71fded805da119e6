//! The graph_validator target's custom mutator: the structure-aware mutator
//! of the generator crate (`spvgraph_generator::mutate`), with the in-tree
//! validator as its validity check. Inputs that do not decode, or valid
//! modules no mutation applies to, are left to libFuzzer's byte mutation.

use spvgraph_ir::Module;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;
use std::sync::OnceLock;

/// Whether the custom mutator is on (`SPVGRAPH_FUZZ_MUTATOR=0` turns it off,
/// for coverage comparisons with byte mutation alone).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("SPVGRAPH_FUZZ_MUTATOR").map_or(true, |v| v.trim() != "0"))
}

fn valid(m: &Module) -> bool {
    static V: OnceLock<Validator> = OnceLock::new();
    V.get_or_init(|| Validator::new(ValidateOptions::default())).rule(m).is_valid()
}

/// `data` mutated in place by one semantic mutation the in-tree validator
/// accepts; the new length, or `None` for byte mutation
/// (see `spvgraph_generator::mutate::mutate_bytes`).
pub fn mutate_in_place(data: &mut [u8], size: usize, max_size: usize, seed: u32) -> Option<usize> {
    spvgraph_generator::mutate::mutate_bytes(data, size, max_size, seed, &valid)
}

//! libFuzzer target: generated modules are accepted, near-valid modules are
//! rejected with exactly their rule, raw bytes never make the validator
//! panic, and spirv-val agrees where it checks the rule (see
//! `spvgraph_fuzz::graph_validator` for the exact property).
//!
//! The custom mutator (`spvgraph_fuzz::mutate`) mutates inputs that decode
//! as valid modules semantically (three times in four; libFuzzer's byte
//! mutation otherwise, and for every other input), so
//! `cargo fuzz run graph_validator corpus/valid` explores from real modules.
//! `SPVGRAPH_FUZZ_MUTATOR=0` leaves only byte mutation (to compare coverage).
#![no_main]

use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

fuzz_target!(
    init: spvgraph_fuzz::init(),
    |data: &[u8]| {
        spvgraph_fuzz::graph_validator::check(data);
    }
);

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    if spvgraph_fuzz::mutate::enabled() && !seed.is_multiple_of(4) {
        if let Some(n) = spvgraph_fuzz::mutate::mutate_in_place(data, size, max_size, seed) {
            return n;
        }
    }
    fuzzer_mutate(data, size, max_size)
});

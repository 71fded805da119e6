//! libFuzzer target: generated modules are accepted, near-valid modules are
//! rejected with exactly their rule, raw bytes never make the validator
//! panic, and spirv-val agrees where it checks the rule (see
//! `spvgraph_fuzz::graph_validator` for the exact property).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: spvgraph_fuzz::init(),
    |data: &[u8]| {
        spvgraph_fuzz::graph_validator::check(data);
    }
);

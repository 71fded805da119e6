//! libFuzzer target: a generated case through the in-process oracles and the
//! judge finds no undocumented disagreement (see `spvgraph_fuzz::differential`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: spvgraph_fuzz::init(),
    |data: &[u8]| {
        spvgraph_fuzz::differential::check(data);
    }
);

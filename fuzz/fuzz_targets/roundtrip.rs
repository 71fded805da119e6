//! libFuzzer target: the SPIR-V codec round-trips every module it accepts and
//! never panics (see `spvgraph_fuzz::roundtrip` for the exact property).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: spvgraph_fuzz::init(),
    |data: &[u8]| {
        spvgraph_fuzz::roundtrip::check(data);
    }
);

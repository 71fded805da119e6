//! libFuzzer target: the reference executor never panics, stays inside its
//! memory budget and is deterministic (see `spvgraph_fuzz::execute`).
#![no_main]

use libfuzzer_sys::fuzz_target;

// Counts the heap, so the property can check the executor's memory budget.
#[global_allocator]
static ALLOC: spvgraph_fuzz::meter::Meter = spvgraph_fuzz::meter::Meter;

fuzz_target!(
    init: spvgraph_fuzz::init(),
    |data: &[u8]| {
        spvgraph_fuzz::execute::check(data);
    }
);

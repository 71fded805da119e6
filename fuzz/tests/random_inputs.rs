//! Every target's property on pseudo-random inputs under plain `cargo test`
//! (as wasm-tools' `test_n_times` does for its fuzz targets): a property
//! that panics on some input is then found by the ordinary test run, on a
//! stable toolchain, without libFuzzer or a corpus. The inputs come from a
//! fixed seed, so a failure reproduces; each target stops early when its
//! time budget is spent, so a slow machine runs fewer of them, never the
//! wrong ones.

use spvgraph_fuzz::{check, TARGETS};
use spvgraph_generator::prng::SplitMix64;
use std::time::{Duration, Instant};

/// Inputs per target when time allows.
const INPUTS: u64 = 300;

/// Time per target after which no further input is started.
const BUDGET: Duration = Duration::from_secs(30);

/// Longest input: long enough for the generator to build several graphs
/// from it, short enough to keep a debug build's run per input brief.
const MAX_LEN: u64 = 2048;

/// Runs `target`'s property on up to `n` inputs drawn from `seed` (random
/// lengths in `0..MAX_LEN`, random bytes), within `budget`; the number run.
fn test_n_times(target: &str, seed: u64, n: u64, budget: Duration) -> u64 {
    let mut rng = SplitMix64::new(seed);
    let start = Instant::now();
    let mut data = Vec::new();
    for i in 0..n {
        if start.elapsed() > budget {
            eprintln!("{target}: time budget spent after {i} of {n} inputs");
            return i;
        }
        let len = rng.next_u64() % MAX_LEN;
        data.clear();
        data.extend((0..len).map(|_| rng.next_u64() as u8));
        assert!(check(target, &data), "unknown target {target}");
    }
    n
}

#[test]
fn every_target_holds_on_random_inputs() {
    for (k, target) in TARGETS.iter().enumerate() {
        let ran = test_n_times(target, 0x5eed_0000 + k as u64, INPUTS, BUDGET);
        assert!(ran > 0, "{target}: no input ran within the budget");
    }
}

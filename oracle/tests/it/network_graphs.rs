//! Graphs of the `network` profile (`Config::network()`) are valid — the
//! in-tree validator and spirv-val accept them — and the in-tree executor
//! runs every one within its default memory budget, with no REQUIRE failing
//! at run time (the transfer functions kept every operand in its domain on
//! real data too, not only on intervals). Prints the executor's time per
//! case.
//!
//! `NETWORK_SEEDS=N cargo test --release -p spvgraph-oracle --test
//! network_graphs -- --nocapture` runs N seeds.

use crate::validate_common as common;
use spvgraph_oracle::oracle::Validator as _;

use common::*;
use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_oracle::exec::{ExecConfig, Executor};
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;
use std::time::Instant;

#[test]
fn network_graphs_are_valid_and_run() {
    let n: u64 = std::env::var("NETWORK_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(24);
    let config = Config::network();
    let validator = Validator::new(ValidateOptions::default());
    let sv = spirv_val();
    let executor = Executor::new(ExecConfig::default());
    let mut failures = Vec::new();
    let mut times = Vec::new();
    for seed in 0..n {
        let case = generate_from_seed(seed, &config);
        assert!(case.meta.internal_errors.is_empty(), "seed {seed}: {:?}", case.meta.internal_errors);
        let w = words(&case.module);
        let r = validator.check_words(&w);
        if !r.is_valid() {
            failures.push(format!("seed {seed}: in-tree rejects a network graph:\n{}", show(&r)));
        }
        if let Some(sv) = &sv {
            match sv.validate(&w, &ValidateOptions::default()) {
                Ok(v) if v.is_valid() => {}
                other => failures.push(format!("seed {seed}: spirv-val: {other:?}")),
            }
        }
        for ep in &case.entry_points {
            let inputs: Vec<_> = ep.inputs.iter().map(|i| i.data.clone()).collect();
            let t = Instant::now();
            match executor.run(&case.module, Some(&ep.name), &inputs, &case.graph_constants) {
                Ok(outputs) => {
                    times.push(t.elapsed().as_secs_f64());
                    assert_eq!(outputs.len(), ep.outputs.len(), "seed {seed}");
                }
                Err(e) => failures.push(format!("seed {seed}: the in-tree executor refuses {}: {e}", ep.name)),
            }
        }
        if failures.len() > 10 {
            break;
        }
    }
    times.sort_by(f64::total_cmp);
    if let (Some(first), Some(last)) = (times.first(), times.last()) {
        println!(
            "{} runs: executor {first:.3} s .. median {:.3} s .. {last:.3} s",
            times.len(),
            times[times.len() / 2]
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

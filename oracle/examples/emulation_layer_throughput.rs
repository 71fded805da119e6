//! Throughput of the emulation-layer oracle: the same generated cases run
//! one graph per scenario, then in batches, several times each; prints the
//! median cases/s per batch size, the processes started and the peak
//! resident memory of one runner process.
//!
//! ```text
//! cargo run --release -p spvgraph-oracle --example emulation_layer_throughput -- \
//!     [--cases N] [--seed S] [--repeat R] [--batches 1,8,32]
//! ```
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test, bench or example: a failure names its place"
)]

use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_ir::tensor::TensorData;
use spvgraph_oracle::external::emulation_layer::EmulationLayer;
use spvgraph_oracle::oracle::Executor as _;
use spvgraph_oracle::oracle::{ExecOutcome, ExecRequest, Oracle};
use std::collections::BTreeMap;
use std::time::Instant;

/// What a request borrows.
struct Owned {
    words: Vec<u32>,
    entry: String,
    inputs: Vec<TensorData>,
    constants: BTreeMap<u32, TensorData>,
}

fn main() {
    let mut cases = 32u64;
    let mut seed = 0u64;
    let mut repeat = 3usize;
    let mut batches = vec![1usize, 8, 32];
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--cases" => cases = value.parse().expect("--cases N"),
            "--seed" => seed = value.parse().expect("--seed S"),
            "--repeat" => repeat = value.parse().expect("--repeat R"),
            "--batches" => batches = value.split(',').map(|b| b.trim().parse().expect("--batches 1,8,32")).collect(),
            other => panic!("unknown flag {other}"),
        }
    }
    let probe = EmulationLayer::discover();
    if let Err(e) = probe.available() {
        eprintln!("emulation layer unavailable: {e}");
        std::process::exit(2);
    }
    println!("{}", probe.version().unwrap_or_default());
    // One request per case: its first entry point. No tensor-array
    // interfaces: the runner cannot bind them, so they would cost nothing.
    let mut config = Config::default();
    config.probs.tensor_array_input = 0.0;
    config.probs.tensor_array_output = 0.0;
    let generated: Vec<_> = (seed..seed + cases).map(|s| generate_from_seed(s, &config)).collect();
    let owned: Vec<Owned> = generated
        .iter()
        .filter_map(|c| {
            let entry = c.entry_points.first()?;
            Some(Owned {
                words: c.module.encode_words().ok()?,
                entry: entry.name.clone(),
                inputs: entry.inputs.iter().map(|i| i.data.clone()).collect(),
                constants: c.graph_constants.clone(),
            })
        })
        .collect();
    let requests: Vec<ExecRequest<'_>> = owned
        .iter()
        .map(|o| ExecRequest {
            module: &o.words,
            entry_point: Some(&o.entry),
            inputs: &o.inputs,
            graph_constants: &o.constants,
        })
        .collect();
    println!("{} cases (seeds {seed}..{}), {repeat} runs per batch size", requests.len(), seed + cases);
    println!(
        "{:>6} {:>12} {:>10} {:>10} {:>12} {:>9}",
        "batch", "cases/s", "s/case", "outputs", "processes", "peak MiB"
    );
    for &b in &batches {
        let mut rates = Vec::new();
        let mut last = (0usize, 0u64, 0u64);
        for _ in 0..repeat {
            let el = EmulationLayer::discover().with_batch_size(b);
            let start = Instant::now();
            let results = el.execute_batch(&requests);
            let secs = start.elapsed().as_secs_f64();
            rates.push(requests.len() as f64 / secs);
            let ok = results.iter().filter(|r| matches!(r, Ok(ExecOutcome::Outputs(_)))).count();
            let s = el.stats();
            last = (ok, s.processes, s.peak_rss_bytes >> 20);
        }
        rates.sort_by(f64::total_cmp);
        let median = rates[rates.len() / 2];
        println!("{b:>6} {median:>12.3} {:>10.2} {:>10} {:>12} {:>9}", 1.0 / median, last.0, last.1, last.2);
    }
}

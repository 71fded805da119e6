//! Replays a corpus directory through a target's property, without
//! libFuzzer, and prints executions per second on one thread (median of
//! five passes) with a breakdown by what the input became:
//!
//! ```sh
//! cargo run --release --manifest-path fuzz/Cargo.toml --example exec_rate -- graph_validator fuzz/corpus/graph_validator
//! ```
//!
//! For `graph_validator`, `SPVGRAPH_FUZZ_SPIRV_VAL=0|F|1` sets the share of
//! near-valid cases spirv-val sees (see `spvgraph_fuzz::graph_validator`).
//!
//! libFuzzer's own exec/s (`fuzz/run.sh`, `-print_final_stats=1`) adds
//! coverage instrumentation and mutation; this measures the property alone.

#![allow(clippy::print_stdout, reason = "a measurement prints its figures")]

use spvgraph_fuzz::{check, corpus_files};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(target), Some(dir)) = (args.next(), args.next()) else {
        eprintln!("usage: exec_rate TARGET CORPUS_DIR");
        std::process::exit(2);
    };
    let inputs: Vec<Vec<u8>> =
        corpus_files(&PathBuf::from(&dir)).iter().filter_map(|p| std::fs::read(p).ok()).collect();
    if inputs.is_empty() {
        eprintln!("no inputs in {dir}");
        std::process::exit(2);
    }
    let mut rates = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        for data in &inputs {
            if !check(&target, data) {
                eprintln!("unknown target {target}");
                std::process::exit(2);
            }
        }
        rates.push(inputs.len() as f64 / t.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    println!("{target}: {} inputs, median {:.0} exec/s on one thread", inputs.len(), rates[2]);
    if target == "graph_validator" {
        let s = spvgraph_fuzz::graph_validator::stats();
        println!(
            "  per pass: {} valid cases, {} near-valid; spirv-val fraction {} ({} asked, {} from the cache, over 5 passes)",
            s.valid / 5,
            s.near_valid / 5,
            spvgraph_fuzz::graph_validator::spirv_val_fraction(),
            s.spirv_val_sampled - s.spirv_val_cached,
            s.spirv_val_cached
        );
    }
}

//! Throughput of the model-converter and IREE adapters on generated cases,
//! one request at a time on one thread: cases (and graphs) per second,
//! median of several runs.
//!
//! ```sh
//! cargo run --release -p spvgraph-oracle --example adapter_throughput -- \
//!     model-converter|model-converter-debug|iree [--count N] [--runs R] [--seed S]
//! ```
//!
//! Each run uses a fresh adapter, so IREE's compile cache starts empty;
//! every graph of cases `S..S+N` is produced (model-converter, with
//! `--emit-debug-info` for `model-converter-debug`) or executed (IREE).
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
use spvgraph_oracle::external::iree::Iree;
use spvgraph_oracle::external::model_converter::ModelConverter;
use spvgraph_oracle::oracle::{ExecRequest, Oracle, ProduceRequest};
use spvgraph_oracle::oracle::{Executor as _, Producer as _};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let which = args.first().cloned().unwrap_or_default();
    let count: u64 = arg("--count").and_then(|s| s.parse().ok()).unwrap_or(20);
    let runs: usize = arg("--runs").and_then(|s| s.parse().ok()).unwrap_or(3);
    let seed: u64 = arg("--seed").and_then(|s| s.parse().ok()).unwrap_or(0);
    let cases: Vec<_> = (seed..seed + count).map(|s| generate_from_seed(s, &Config::default())).collect();
    let graphs: usize = cases.iter().map(|c| c.entry_points.len()).sum();
    let mut rates = Vec::new();
    for run in 0..runs {
        let start = Instant::now();
        let mut failures = 0usize;
        match which.as_str() {
            "model-converter" | "model-converter-debug" => {
                let mc = ModelConverter::discover();
                if let Err(e) = mc.available() {
                    eprintln!("{e}");
                    std::process::exit(2);
                }
                for case in &cases {
                    for ep in &case.entry_points {
                        let Ok(mlir) = spvgraph_ir::mlir::module_to_mlir(&case.module, &ep.name, &case.graph_constants)
                        else {
                            failures += 1;
                            continue;
                        };
                        let request = ProduceRequest { mlir: &mlir, debug_info: which.ends_with("debug") };
                        failures += usize::from(mc.produce(&request).is_err());
                    }
                }
            }
            "iree" => {
                let iree = Iree::discover();
                if let Err(e) = iree.available() {
                    eprintln!("{e}");
                    std::process::exit(2);
                }
                for case in &cases {
                    let Ok(words) = case.module.encode_words() else { continue };
                    for ep in &case.entry_points {
                        let inputs: Vec<TensorData> = ep.inputs.iter().map(|i| i.data.clone()).collect();
                        let request = ExecRequest {
                            module: &words,
                            entry_point: Some(&ep.name),
                            inputs: &inputs,
                            graph_constants: &case.graph_constants,
                        };
                        failures += usize::from(iree.execute(&request).is_err());
                    }
                }
            }
            other => {
                eprintln!("unknown adapter {other:?}: model-converter, model-converter-debug or iree");
                std::process::exit(2);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "run {run}: {count} cases, {graphs} graphs in {secs:.2} s: {:.2} cases/s, {:.2} graphs/s ({failures} harness errors)",
            count as f64 / secs,
            graphs as f64 / secs
        );
        rates.push(count as f64 / secs);
    }
    rates.sort_by(f64::total_cmp);
    let median = rates[rates.len() / 2];
    println!(
        "{which}: median {median:.2} cases/s ({:.2} graphs/s) over {runs} runs",
        median * graphs as f64 / count as f64
    );
}

//! Argument parsing and dispatch; one module per subcommand.

// The command files print their results and diagnostics: the one place
// output goes to stdout and stderr.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod bench_backends;
mod corpus;
mod diff;
mod diff_exec;
mod dis;
mod findings;
mod generate;
mod hunt;
mod info;
mod input;
mod reduce;
mod report;
mod roundtrip;
mod run;
mod validate;
mod vulkan_worker;

use clap::{Parser, Subcommand};

/// What a subcommand concluded (I/O and usage errors are `Err`).
pub enum Outcome {
    /// Everything checked out.
    Success,
    /// The check the command performs failed; details were printed.
    CheckFailed,
}

/// Fuzzing and differential-testing harness for SPIR-V graph modules.
#[derive(Parser, Debug)]
#[command(name = "spvgraph", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Each expensive backend's judged cases per second of its own time, the
    /// path before amortization and guidance beside the path now, on one
    /// seed range; writes OUT/bench.json.
    BenchBackends(bench_backends::Args),
    /// The regression corpus: `build` its valid cases with expected
    /// outputs, `check` another implementation (a validator or an executor,
    /// by registry name or command template) on every case, `add` a finding.
    Corpus(corpus::Args),
    /// One module through every oracle (validators, execution backends,
    /// the referee), one judgement: a table of answers and disagreements.
    Diff(diff::Args),
    /// Differential sweep: the executor against the TOSA reference model on
    /// generated graphs per operator × type row, with the TOSA compliance
    /// rules; prints a per-row table (cases, pass, fail).
    DiffExec(diff_exec::Args),
    /// Print a readable, spirv-dis-like listing with friendly names.
    Dis(dis::Args),
    /// Merge hunts' findings directories by signature (a hunt sharded by
    /// seed range), or rebuild a killed hunt's summary.json.
    Findings(findings::Args),
    /// Generate valid-by-construction graph modules with their input data,
    /// TOSA MLIR and manifests; `--coverage` and `--check-spirv-val` check them.
    Generate(generate::Args),
    /// The bug hunt: for --time or --count, on every core, generate valid and
    /// near-valid cases, run every available oracle on them (validators on
    /// all, backends and producers on a sample), and write every
    /// disagreement as a finding under OUT/findings/.
    Hunt(hunt::Args),
    /// Summarise a module: graphs, entry points, interfaces and bindings,
    /// graph constants, operator histogram.
    Info(info::Args),
    /// Write a hunt's report, DIR/report.md and DIR/report.html: findings by
    /// oracle, kind, severity and operator, what is new, throughput,
    /// coverage, and each finding's reproduce command.
    Report(report::Args),
    /// Shrink a module and its input data while a test (given the candidate
    /// .spv as its last argument) exits 0; every candidate keeps the input's
    /// validity (or --keep-valid / --rule R).
    Reduce(reduce::Args),
    /// Decode and re-encode each file; fail naming the first differing word.
    Roundtrip(roundtrip::Args),
    /// Run a graph on the reference executor: inputs and graph constants from
    /// `.npy` files, outputs written as DIR/out0.npy, DIR/out1.npy, ...
    Run(run::Args),
    /// Validate modules against every rule of the catalogue (layout, graphs,
    /// tensors, debug info, all 66 TOSA operators); `--oracle spirv-val|both`
    /// runs spirv-val too.
    Validate(validate::Args),
    /// The `vulkan` oracle's worker process (started by the oracle; it
    /// speaks a pipe protocol on standard input and output).
    #[command(hide = true)]
    VulkanWorker(vulkan_worker::Args),
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::BenchBackends(a) => bench_backends::run(a),
        Command::Corpus(a) => corpus::run(a),
        Command::Diff(a) => diff::run(a),
        Command::DiffExec(a) => diff_exec::run(a),
        Command::Dis(a) => dis::run(a),
        Command::Findings(a) => findings::run(a),
        Command::Generate(a) => generate::run(a),
        Command::Hunt(a) => hunt::run(a),
        Command::Info(a) => info::run(a),
        Command::Reduce(a) => reduce::run(a),
        Command::Report(a) => report::run(a),
        Command::Roundtrip(a) => roundtrip::run(a),
        Command::Run(a) => run::run(a),
        Command::Validate(a) => validate::run(a),
        Command::VulkanWorker(a) => vulkan_worker::run(a),
    }
}

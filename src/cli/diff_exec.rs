//! `spvgraph diff-exec`: the in-tree executor against the TOSA reference
//! model, on generated single-operator graphs, per operator × type row,
//! compared with the TOSA compliance rules.
//!
//! ```text
//! spvgraph diff-exec --per-row 20                      # the full sweep: every row of every operator
//! spvgraph diff-exec --ops CONV2D,MATMUL --per-row 50  # some operators
//! spvgraph diff-exec --per-row 20 --findings corpus/findings   # write each disagreement as a case
//! ```
//!
//! For each type row, attempt `k` uses seed `(opcode·100 + row)·10⁶ + k`
//! (plus `SEED·1_000_000_007` with `--seed`), so `spvgraph generate --seed N`
//! with the same configuration regenerates any case; the configuration allows
//! only that operator, one graph of one operation, and the row's profile, and
//! cases whose operation landed on another row are passed over. Each case runs
//! on the executor and on the reference model in precise mode (fp64 results
//! and bounds tensors); every output is measured with
//! `spvgraph_oracle::compliance::compare_run`, and the executor's answer goes
//! through the one judgement (the model as the referee), whose findings fail
//! a case; a difference it finds no fault in (documented, a flushed
//! subnormal, elements the model's own result fails) is unchecked. Prints the
//! per-row table (cases, pass, fail, unchecked, error, modes, worst
//! error/allowed ratio); exit status 1 when any case disagrees or the model failed.

use super::Outcome;
use spvgraph::diff_exec::{parse_ops, sweep, SweepOptions};
use spvgraph_oracle::registry::{self, OracleConfig};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `diff-exec`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Cases per operator × type row.
    #[arg(long, default_value_t = 20)]
    per_row: u32,
    /// Operators to sweep (grammar names, comma-separated; default all 66).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    ops: Option<Vec<String>>,
    /// Base seed (changes every case).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Generation attempts per wanted case before a row counts as unreached.
    #[arg(long, default_value_t = 50)]
    attempts: u32,
    /// Write every disagreeing case here (corpus format, stem `ref-<op>-r<row>-s<seed>`).
    #[arg(long, value_name = "DIR")]
    findings: Option<PathBuf>,
    /// Parallel jobs (default: the number of CPUs).
    #[arg(long)]
    jobs: Option<usize>,
    /// Time limit of each reference-model tool run, in seconds.
    #[arg(long, default_value_t = 120)]
    timeout: u64,
}

/// Runs the sweep and prints the table.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let options = SweepOptions {
        ops: parse_ops(args.ops.as_deref())?,
        per_row: args.per_row,
        seed: args.seed,
        attempts: args.attempts,
        findings: args.findings,
        jobs: args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
    };
    let config = OracleConfig { timeout: Duration::from_secs(args.timeout), ..OracleConfig::default() };
    let reference = registry::build(registry::TOSA_REF, &config)?;
    let report = sweep(&options, reference.as_ref())?;
    for e in &report.write_errors {
        eprintln!("{e}");
    }
    print!("{}", report.tally.table());
    if !report.unreached.is_empty() {
        println!("rows short of --per-row cases (the generator did not reach them): {}", report.unreached.join(", "));
    }
    let total = report.tally.total();
    println!(
        "{} cases in {:.1} s: {} pass, {} fail, {} unchecked, {} errors",
        total.cases, report.seconds, total.pass, total.fail, total.unchecked, total.errors
    );
    Ok(if total.fail == 0 && total.errors == 0 { Outcome::Success } else { Outcome::CheckFailed })
}

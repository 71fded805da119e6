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
//! and bounds tensors), and every output is checked with
//! `spvgraph_oracle::compliance::compare`. Prints the per-row table (cases,
//! pass, fail, unchecked, error, modes, worst error/allowed ratio); exit
//! status 1 when any case disagrees or the model failed.

use super::Outcome;
use anyhow::{bail, Context};
use rayon::prelude::*;
use spvgraph_generator::files::{self, Extras};
use spvgraph_generator::{generate_from_seed, single_op_seed, Case, Config};
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::tosa_reference::{check_against_reference, Agreement, SweepTally, TosaReferenceModel};
use spvgraph_oracle::oracle::{ExecRequest, Oracle, OracleError};
use std::path::PathBuf;
use std::time::{Duration, Instant};

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

/// A sweep job: every wanted case of one operator × type row.
struct RowJob {
    op: TosaOp,
    row: usize,
}

/// Runs the sweep and prints the table.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let ops = match &args.ops {
        None => TosaOp::ALL.to_vec(),
        Some(names) => names
            .iter()
            .map(|n| TosaOp::from_name(&n.to_ascii_uppercase()).with_context(|| format!("unknown operator {n:?}")))
            .collect::<anyhow::Result<Vec<_>>>()?,
    };
    if args.per_row == 0 {
        bail!("--per-row must be at least 1");
    }
    let model = TosaReferenceModel::discover().with_timeout(Duration::from_secs(args.timeout));
    model.available().map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(dir) = &args.findings {
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    }
    let jobs: Vec<RowJob> =
        ops.iter().flat_map(|&op| (0..op.spec().type_rows.len()).map(move |row| RowJob { op, row })).collect();
    let threads = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build()?;
    let start = Instant::now();
    let results: Vec<(SweepTally, Vec<String>)> =
        pool.install(|| jobs.par_iter().map(|j| sweep_row(j, &args, &model)).collect());
    let mut tally = SweepTally::new();
    let mut unreached = Vec::new();
    for (t, u) in &results {
        tally.merge(t);
        unreached.extend(u.iter().cloned());
    }
    print!("{}", tally.table());
    if !unreached.is_empty() {
        println!("rows short of --per-row cases (the generator did not reach them): {}", unreached.join(", "));
    }
    let total = tally.total();
    println!(
        "{} cases in {:.1} s: {} pass, {} fail, {} unchecked, {} errors",
        total.cases,
        start.elapsed().as_secs_f64(),
        total.pass,
        total.fail,
        total.unchecked,
        total.errors
    );
    Ok(if total.fail == 0 && total.errors == 0 { Outcome::Success } else { Outcome::CheckFailed })
}

fn sweep_row(job: &RowJob, args: &Args, model: &TosaReferenceModel) -> (SweepTally, Vec<String>) {
    let config = Config::single_op(job.op, job.row, &Config::default());
    let executor = Executor::default();
    let mut tally = SweepTally::new();
    let mut found = 0u32;
    let budget = u64::from(args.per_row) * u64::from(args.attempts.max(1));
    for k in 0..budget {
        if found >= args.per_row {
            break;
        }
        let seed = single_op_seed(args.seed, job.op, job.row, k);
        let case = generate_from_seed(seed, &config);
        if !case.meta.internal_errors.is_empty()
            || !case.meta.type_rows.iter().any(|u| u.op == job.op && u.row == job.row)
        {
            continue;
        }
        found += 1;
        let outcome = run_case(&case, model, &executor);
        let label = format!("seed {seed}");
        tally.record(job.op, job.row, &label, &outcome);
        if let (Some(dir), Ok(Agreement::Mismatch { .. }) | Err(_)) = (&args.findings, &outcome) {
            let stem = format!("ref-{}-r{}-s{seed}", job.op.name().to_ascii_lowercase(), job.row);
            if let Err(e) = files::write_case(dir, &stem, &case, &Extras { spvasm: true, mlir: true }) {
                eprintln!("{}: cannot write {stem}: {e}", dir.display());
            }
            let detail = match &outcome {
                Ok(a) => format!("{a:?}"),
                Err(e) => e.to_string(),
            };
            let _ = std::fs::write(dir.join(format!("{stem}.txt")), detail);
        }
    }
    let unreached = if found < args.per_row {
        vec![format!("{} row {} ({found}/{})", job.op, job.row, args.per_row)]
    } else {
        Vec::new()
    };
    (tally, unreached)
}

fn run_case(case: &Case, model: &TosaReferenceModel, executor: &dyn Oracle) -> Result<Agreement, OracleError> {
    let Some(entry) = case.entry_points.first() else {
        return Ok(Agreement::Skipped("the case has no entry point".into()));
    };
    let words = case.module.encode_words().map_err(|e| OracleError::Failed {
        oracle: "generator".into(),
        reason: format!("module does not encode: {e}"),
    })?;
    let inputs: Vec<_> = entry.inputs.iter().map(|i| i.data.clone()).collect();
    let request = ExecRequest {
        module: &words,
        entry_point: Some(&entry.name),
        inputs: &inputs,
        graph_constants: &case.graph_constants,
    };
    check_against_reference(model, executor, &request)
}

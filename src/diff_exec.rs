//! The sweep behind `spvgraph diff-exec`: the in-tree executor against a
//! reference oracle (one with [`Capability::Reference`], the TOSA reference
//! model from the registry), on generated single-operator graphs, per
//! operator × type row, compared with the TOSA compliance rules.
//!
//! For each type row, attempt `k` uses seed `(opcode·100 + row)·10⁶ + k`
//! (plus `SEED·1_000_000_007` with `--seed`), so `spvgraph generate --seed N`
//! with the same configuration regenerates any case; the configuration allows
//! only that operator, one graph of one operation, and the row's profile, and
//! cases whose operation landed on another row are passed over. Each case runs
//! on the executor and on the reference in precise mode (fp64 results and
//! bounds tensors), and every output is compared with
//! [`spvgraph_oracle::compliance::compare_run`].

use anyhow::{bail, Context};
use rayon::prelude::*;
use spvgraph_generator::files::{self, Extras};
use spvgraph_generator::{generate_from_seed, single_op_seed, Case, Config};
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::compliance::{compare_run, Agreement, SweepTally};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::judge::can;
use spvgraph_oracle::oracle::{Capability, ExecRequest, Oracle, OracleError};
use std::path::PathBuf;
use std::time::Instant;

/// What to sweep.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// The operators (all 66 by default).
    pub ops: Vec<TosaOp>,
    /// Cases per operator × type row.
    pub per_row: u32,
    /// Base seed (changes every case).
    pub seed: u64,
    /// Generation attempts per wanted case before a row counts as unreached.
    pub attempts: u32,
    /// Where to write every disagreeing case (corpus format, stem `ref-<op>-r<row>-s<seed>`).
    pub findings: Option<PathBuf>,
    /// Parallel jobs.
    pub jobs: usize,
}

/// What a sweep found.
#[derive(Clone, Debug)]
pub struct SweepReport {
    /// Per operator × type row counts.
    pub tally: SweepTally,
    /// Rows the generator did not reach `per_row` times (`OP row R (found/wanted)`).
    pub unreached: Vec<String>,
    /// Wall time, in seconds.
    pub seconds: f64,
}

/// A sweep job: every wanted case of one operator × type row.
struct RowJob {
    op: TosaOp,
    row: usize,
}

/// Parses `--ops` (grammar names, any case).
pub fn parse_ops(names: Option<&[String]>) -> anyhow::Result<Vec<TosaOp>> {
    match names {
        None => Ok(TosaOp::ALL.to_vec()),
        Some(names) => names
            .iter()
            .map(|n| TosaOp::from_name(&n.to_ascii_uppercase()).with_context(|| format!("unknown operator {n:?}")))
            .collect(),
    }
}

/// Runs the sweep with `reference` as the yardstick. A reference that
/// cannot run here, or that does not answer precisely, is an error (nothing
/// would be checked).
pub fn sweep(options: &SweepOptions, reference: &dyn Oracle) -> anyhow::Result<SweepReport> {
    if options.per_row == 0 {
        bail!("--per-row must be at least 1");
    }
    if !can(reference, Capability::Reference) {
        bail!("{} gives no precise reference run", reference.name());
    }
    reference.available().map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(dir) = &options.findings {
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    }
    let jobs: Vec<RowJob> =
        options.ops.iter().flat_map(|&op| (0..op.spec().type_rows.len()).map(move |row| RowJob { op, row })).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(options.jobs.max(1)).build()?;
    let start = Instant::now();
    let results: Vec<(SweepTally, Vec<String>)> =
        pool.install(|| jobs.par_iter().map(|j| sweep_row(j, options, reference)).collect());
    let mut tally = SweepTally::new();
    let mut unreached = Vec::new();
    for (t, u) in &results {
        tally.merge(t);
        unreached.extend(u.iter().cloned());
    }
    Ok(SweepReport { tally, unreached, seconds: start.elapsed().as_secs_f64() })
}

fn sweep_row(job: &RowJob, options: &SweepOptions, reference: &dyn Oracle) -> (SweepTally, Vec<String>) {
    let config = Config::single_op(job.op, job.row, &Config::default());
    let executor = Executor::default();
    let mut tally = SweepTally::new();
    let mut found = 0u32;
    let budget = u64::from(options.per_row) * u64::from(options.attempts.max(1));
    for k in 0..budget {
        if found >= options.per_row {
            break;
        }
        let seed = single_op_seed(options.seed, job.op, job.row, k);
        let case = generate_from_seed(seed, &config);
        if !case.meta.internal_errors.is_empty()
            || !case.meta.type_rows.iter().any(|u| u.op == job.op && u.row == job.row)
        {
            continue;
        }
        found += 1;
        let outcome = run_case(&case, reference, &executor);
        let label = format!("seed {seed}");
        tally.record(job.op, job.row, &label, &outcome);
        if let (Some(dir), Ok(Agreement::Mismatch { .. }) | Err(_)) = (&options.findings, &outcome) {
            write_finding(
                dir,
                &format!("ref-{}-r{}-s{seed}", job.op.name().to_ascii_lowercase(), job.row),
                &case,
                &outcome,
            );
        }
    }
    let unreached = if found < options.per_row {
        vec![format!("{} row {} ({found}/{})", job.op, job.row, options.per_row)]
    } else {
        Vec::new()
    };
    (tally, unreached)
}

/// Writes a disagreeing case and what happened (`STEM.txt`); a failure to
/// write is reported and the sweep goes on.
fn write_finding(dir: &std::path::Path, stem: &str, case: &Case, outcome: &Result<Agreement, OracleError>) {
    if let Err(e) = files::write_case(dir, stem, case, &Extras { spvasm: true, mlir: true }) {
        eprintln!("{}: cannot write {stem}: {e}", dir.display());
    }
    let detail = match outcome {
        Ok(a) => format!("{a:?}"),
        Err(e) => e.to_string(),
    };
    let path = dir.join(format!("{stem}.txt"));
    if let Err(e) = std::fs::write(&path, detail) {
        eprintln!("{}: {e}", path.display());
    }
}

fn run_case(case: &Case, reference: &dyn Oracle, executor: &dyn Oracle) -> Result<Agreement, OracleError> {
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
    let precise = reference.referee()?.execute_precise(&request)?;
    compare_run(&request, &precise, executor.name(), executor.executor().and_then(|e| e.execute(&request)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_oracle::registry::{self, OracleConfig};

    fn options(ops: Vec<TosaOp>) -> SweepOptions {
        SweepOptions { ops, per_row: 2, seed: 0, attempts: 50, findings: None, jobs: 2 }
    }

    #[test]
    fn the_sweep_takes_its_reference_from_the_registry_and_tallies_every_row() {
        let reference = match registry::build(registry::TOSA_REF, &OracleConfig::default()) {
            Ok(r) if r.available().is_ok() => r,
            // Only when this machine lacks the model; CI installs it.
            other => {
                let why = other.map_or_else(|e| e.to_string(), |r| format!("{:?}", r.available().err()));
                assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true has the reference model: {why}");
                return;
            }
        };
        let report = sweep(&options(vec![TosaOp::Abs, TosaOp::Add]), reference.as_ref()).expect("sweep");
        let total = report.tally.total();
        let rows = TosaOp::Abs.spec().type_rows.len() + TosaOp::Add.spec().type_rows.len();
        assert!(report.unreached.is_empty(), "{:?}", report.unreached);
        assert_eq!(total.cases as usize, rows * 2, "{}", report.tally.table());
        // The in-tree executor computes ABS and ADD exactly or within their bounds.
        assert_eq!((total.fail, total.errors), (0, 0), "{}", report.tally.table());
    }

    #[test]
    fn an_oracle_without_a_precise_run_is_no_reference() {
        let executor = Executor::default();
        let err = sweep(&options(vec![TosaOp::Abs]), &executor).expect_err("the in-tree executor is no reference");
        assert!(err.to_string().contains("no precise reference run"), "{err}");
    }
}

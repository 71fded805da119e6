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
//! bounds tensors); every output is measured with
//! [`spvgraph_oracle::compliance::compare_run`] (the table's modes and worst
//! ratio) and the executor's answer goes through the one judgement
//! ([`spvgraph_oracle::judge::judge`], the reference as the referee) and its
//! disposition, which decide whether the case fails. The reference's own
//! crashes and refusals are what the measure says (the judgement uses the
//! reference only as the referee).

use anyhow::{bail, Context};
use rayon::prelude::*;
use spvgraph_generator::files::{self, Extras};
use spvgraph_generator::{generate_from_seed, single_op_seed, Case, Config};
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::attribution::Owner;
use spvgraph_oracle::compliance::{compare_run, Agreement, PreciseOutcome, SweepTally};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::judge::{can, judge, Disagreement, DocumentedPolicy, ExecAnswer, Expectation, Observations};
use spvgraph_oracle::oracle::{
    self, Capability, ExecRequest, Instance, Oracle, OracleError, Producer, Reader, Referee, Validator,
};
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
    /// Disagreeing cases that could not be written to `--findings` (the sweep went on).
    pub write_errors: Vec<String>,
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
    let results: Vec<RowResult> = pool.install(|| jobs.par_iter().map(|j| sweep_row(j, options, reference)).collect());
    let mut tally = SweepTally::new();
    let mut unreached = Vec::new();
    let mut write_errors = Vec::new();
    for r in &results {
        tally.merge(&r.tally);
        unreached.extend(r.unreached.iter().cloned());
        write_errors.extend(r.write_errors.iter().cloned());
    }
    Ok(SweepReport { tally, unreached, seconds: start.elapsed().as_secs_f64(), write_errors })
}

/// What one operator × type row gave.
struct RowResult {
    tally: SweepTally,
    unreached: Vec<String>,
    write_errors: Vec<String>,
}

fn sweep_row(job: &RowJob, options: &SweepOptions, reference: &dyn Oracle) -> RowResult {
    let config = Config::single_op(job.op, job.row, &Config::default());
    let executor = Executor::default();
    let mut tally = SweepTally::new();
    let mut found = 0u32;
    let mut write_errors = Vec::new();
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
        let outcome = run_case(&case, job.op, reference, &executor);
        let label = format!("seed {seed}");
        tally.record(job.op, job.row, &label, &outcome);
        if let (Some(dir), Ok(Agreement::Mismatch { .. }) | Err(_)) = (&options.findings, &outcome) {
            write_errors.extend(write_finding(
                dir,
                &format!("ref-{}-r{}-s{seed}", job.op.name().to_ascii_lowercase(), job.row),
                &case,
                &outcome,
            ));
        }
    }
    let unreached = if found < options.per_row {
        vec![format!("{} row {} ({found}/{})", job.op, job.row, options.per_row)]
    } else {
        Vec::new()
    };
    RowResult { tally, unreached, write_errors }
}

/// Writes a disagreeing case and what happened (`STEM.txt`); what could
/// not be written is returned, and the sweep goes on.
fn write_finding(
    dir: &std::path::Path,
    stem: &str,
    case: &Case,
    outcome: &Result<Agreement, OracleError>,
) -> Vec<String> {
    let mut errors = Vec::new();
    if let Err(e) = files::write_case(dir, stem, case, &Extras { spvasm: true, mlir: true }) {
        errors.push(format!("{}: cannot write {stem}: {e}", dir.display()));
    }
    let detail = match outcome {
        Ok(a) => format!("{a:?}"),
        Err(e) => e.to_string(),
    };
    let path = dir.join(format!("{stem}.txt"));
    if let Err(e) = std::fs::write(&path, detail) {
        errors.push(format!("{}: {e}", path.display()));
    }
    errors
}

/// Runs one case of `op` on the executor and the reference, and judges it.
fn run_case(case: &Case, op: TosaOp, reference: &dyn Oracle, executor: &dyn Oracle) -> Result<Agreement, OracleError> {
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
    let outcome = executor.executor().and_then(|e| e.execute(&request));
    // The measure: modes and how close each output came to its bound, for the table.
    let measured = compare_run(&request, &precise, executor.name(), outcome.clone())?;
    if !matches!(precise, PreciseOutcome::Outputs(_)) {
        // The reference itself crashed or refused: a fact about the model
        // (its `ref-*` findings), which the judgement, using it only as the
        // referee, does not judge.
        return Ok(measured);
    }
    let referee = Answered { oracle: reference, request, precise: &precise };
    let observations = Observations {
        request: Some(request),
        against_referee: vec![ExecAnswer::plain(executor, outcome)],
        referee: Some(&referee),
        operators: vec![op],
        ..Observations::default()
    };
    let ds = judge(&Expectation::Valid, &observations);
    Ok(judged(measured, &ds))
}

/// The case's verdict for the table: the judgement's first finding fails
/// it; a difference the judgement finds no fault in (documented, a
/// subnormal the rules let an implementation flush, elements the reference
/// model's own result fails) is not checked; else what was measured.
fn judged(measured: Agreement, ds: &[Disagreement]) -> Agreement {
    let finding = ds.iter().find(|d| d.disposition(DocumentedPolicy::Known).counts());
    match (finding, measured) {
        (Some(d), _) => Agreement::Mismatch { output: None, detail: format!("{}: {}", d.kind, d.detail) },
        (None, Agreement::Mismatch { detail, .. }) => {
            Agreement::Incomparable(format!("the judgement finds no fault in a difference: {detail}"))
        }
        (None, measured) => measured,
    }
}

/// The reference oracle with its precise run of the case already answered,
/// so that the judgement does not run it again; any other request (the case
/// with its subnormals flushed, a normal-mode run) goes to the oracle.
struct Answered<'a> {
    oracle: &'a dyn Oracle,
    request: ExecRequest<'a>,
    precise: &'a PreciseOutcome,
}

impl Answered<'_> {
    fn is_the_case(&self, r: &ExecRequest<'_>) -> bool {
        let (a, b) = (&self.request, r);
        a.module == b.module
            && a.entry_point == b.entry_point
            && a.inputs == b.inputs
            && a.graph_constants == b.graph_constants
    }
}

impl Oracle for Answered<'_> {
    fn instance(&self) -> &Instance {
        self.oracle.instance()
    }

    fn available(&self) -> Result<(), OracleError> {
        self.oracle.available()
    }

    fn version(&self) -> Option<String> {
        self.oracle.version()
    }

    fn components(&self) -> &'static [Owner] {
        self.oracle.components()
    }

    fn as_validator(&self) -> Option<&dyn Validator> {
        None
    }

    fn as_executor(&self) -> Option<&dyn oracle::Executor> {
        self.oracle.as_executor()
    }

    fn as_producer(&self) -> Option<&dyn Producer> {
        None
    }

    fn as_reader(&self) -> Option<&dyn Reader> {
        None
    }

    fn as_referee(&self) -> Option<&dyn Referee> {
        Some(self)
    }
}

impl Referee for Answered<'_> {
    fn execute_precise(&self, request: &ExecRequest<'_>) -> Result<PreciseOutcome, OracleError> {
        if self.is_the_case(request) {
            return Ok(self.precise.clone());
        }
        self.oracle.referee()?.execute_precise(request)
    }
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
    fn the_judgement_decides_whether_a_case_fails() {
        let mismatch = || Agreement::Mismatch { output: Some(0), detail: "output 0 (ABS): off".into() };
        let finding = Disagreement::new(spvgraph_oracle::judge::Kind::WrongOutput, "in-tree", "not compliant");
        // A finding fails the case whatever was measured.
        assert!(judged(Agreement::Compliant(Vec::new()), std::slice::from_ref(&finding)).is_mismatch());
        // A difference the judgement finds no fault in is not checked.
        assert!(matches!(judged(mismatch(), &[]), Agreement::Incomparable(_)));
        let mut note = finding.clone();
        note.oracles.clear();
        assert!(matches!(judged(mismatch(), &[note]), Agreement::Incomparable(_)));
        // Else the measure stands.
        assert_eq!(judged(Agreement::Skipped("budget".into()), &[]), Agreement::Skipped("budget".into()));
    }

    #[test]
    fn an_oracle_without_a_precise_run_is_no_reference() {
        let executor = Executor::default();
        let err = sweep(&options(vec![TosaOp::Abs]), &executor).expect_err("the in-tree executor is no reference");
        assert!(err.to_string().contains("no precise reference run"), "{err}");
    }
}

//! `corpus check`: runs one implementation on every case and judges it.
//!
//! A validator must accept every case of `valid/` and `pipeline/` (module
//! validity; pipeline rules are not module rules) and reject every case of
//! `invalid/`. An executor runs every entry point of every case that has
//! expected outputs. Every answer goes through the one judgement
//! ([`spvgraph_oracle::judge::judge`]), with the case's expectation (valid,
//! or the rule and mutator of an `invalid/` case); an executor's outputs are
//! compared with the stored expected outputs, and the stored fp64 results and
//! bounds of the reference model's precise run are the referee. A command
//! template is an oracle too ([`TemplateOracle`]). Cases needing a profile or extension the
//! implementation lacks are skipped and counted; crashes and timeouts are
//! failures of their own kind, and the run goes on.

use super::cases::{CorpusCase, Expect};
use super::template::TemplateOracle;
use anyhow::{anyhow, bail};
use rayon::prelude::*;
use serde::Serialize;
use spvgraph_generator::files::ExpectedOutputRecord;
use spvgraph_ir::elem::Profile;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::npy::NpyArray;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::attribution::Owner;
use spvgraph_oracle::compliance::{Mode, PreciseOutcome, PreciseOutput, ReferenceTensor};
use spvgraph_oracle::external::process::Limits;
use spvgraph_oracle::judge::{
    judge, Disagreement, Disposition, DocumentedPolicy, ExecAnswer, Expectation, Kind, Observations, ReadSubject,
    ReadingAnswer, ValidityAnswer,
};
use spvgraph_oracle::oracle::{
    ExecOutcome, ExecRequest, Instance, Oracle, OracleError, OwnedExecRequest, Referee, Refusal, RuleClaim,
    ValidateOptions, Verdict,
};
use std::path::Path;
use std::time::{Duration, Instant};

/// What the implementation is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Accept or reject each module.
    Validator,
    /// Run each graph and write its outputs.
    Executor,
    /// Read each module and show its graphs (a viewer: `model-explorer`):
    /// every valid case read as it is, every invalid one answered without
    /// a crash or a hang.
    Reader,
}

/// The implementation under test.
pub enum Implementation {
    /// An oracle of the registry (`spirv-val`, `emulation-layer`, ...).
    Oracle(Box<dyn Oracle>),
    /// A command template ([`super::template`]).
    Command(String),
}

impl Implementation {
    /// Its name in reports: the oracle's name, or the template.
    pub fn name(&self) -> String {
        match self {
            Implementation::Oracle(o) => o.name().to_string(),
            Implementation::Command(t) => t.clone(),
        }
    }

    /// The oracle's tool version, when known.
    pub fn version(&self) -> Option<String> {
        match self {
            Implementation::Oracle(o) => o.version(),
            Implementation::Command(_) => None,
        }
    }
}

/// How to run a check.
pub struct CheckOptions {
    /// Validator or executor.
    pub role: Role,
    /// Who.
    pub implementation: Implementation,
    /// The profiles and extensions the implementation has.
    pub profiles: Vec<Profile>,
    /// Limits of one command run (templates; oracles use their own).
    pub limits: Limits,
    /// Parallel runs (templates and oracles that do not batch).
    pub jobs: usize,
}

/// How one case went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// What a conforming implementation does.
    Pass,
    /// Not what a conforming implementation does.
    Fail,
    /// The implementation crashed, hung or ran out of memory.
    Crash,
    /// Not run: it needs a profile the implementation lacks, or nothing in
    /// it can be judged.
    Skip,
}

impl Status {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Crash => "crash",
            Status::Skip => "skip",
        }
    }
}

/// The verdict on one case.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// `FOLDER/STEM`.
    pub name: String,
    /// The operator(s) or rule it is filed under.
    pub group: String,
    /// Whether it is a must-reject case (grouped per rule) or not (per operator).
    pub must_reject: bool,
    /// The verdict.
    pub status: Status,
    /// Why (failures, crashes and skips).
    pub detail: String,
    /// For a failure: the implementation's documented discrepancy it is
    /// (its minimal module), when the registry knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub documented: Option<String>,
    /// Wall time of the case, in seconds.
    pub seconds: f64,
}

/// Everything a check found.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// Validator or executor.
    pub role: Role,
    /// The implementation (oracle name or command template).
    pub implementation: String,
    /// Its version, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The profiles it was taken to have.
    pub profiles: Vec<String>,
    /// Wall time of the whole check, in seconds.
    pub seconds: f64,
    /// One entry per case, in name order.
    pub cases: Vec<CaseResult>,
    /// The implementation's documented discrepancies (their minimal
    /// modules), when it is an oracle of the registry: the report counts the
    /// cases that fail as each, so that a run of another version of the tool
    /// (`emulation-layer@dev`) shows which of them it no longer shows.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub documented: Vec<String>,
}

/// Runs `options.implementation` on `cases`. An oracle that cannot run here
/// is an error (nothing would be checked).
pub fn check(cases: &[CorpusCase], options: &CheckOptions) -> anyhow::Result<CheckReport> {
    let start = Instant::now();
    // A template goes through the same judgement as the registry's oracles.
    let template;
    let oracle: &dyn Oracle = match (&options.implementation, options.role) {
        (Implementation::Oracle(o), _) => o.as_ref(),
        (Implementation::Command(t), Role::Validator) => {
            template = TemplateOracle::validator(t, options.limits);
            &template
        }
        (Implementation::Command(t), Role::Executor) => {
            template = TemplateOracle::executor(t, options.limits);
            &template
        }
        (Implementation::Command(t), Role::Reader) => {
            bail!("{t}: a reader is checked as a registry oracle (model-explorer), not a command")
        }
    };
    oracle.available().map_err(|e| anyhow!("{e}"))?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(options.jobs.max(1)).build()?;
    let results = pool.install(|| match options.role {
        Role::Validator => cases.par_iter().map(|c| validate_case(c, oracle, &options.profiles)).collect::<Vec<_>>(),
        Role::Executor => execute_cases(cases, oracle, &options.profiles),
        Role::Reader => cases.par_iter().map(|c| read_case(c, oracle)).collect::<Vec<_>>(),
    });
    Ok(CheckReport {
        role: options.role,
        implementation: options.implementation.name(),
        version: options.implementation.version(),
        profiles: options.profiles.iter().map(|p| p.name().to_string()).collect(),
        seconds: start.elapsed().as_secs_f64(),
        cases: results,
        documented: match &options.implementation {
            Implementation::Oracle(o) => {
                let mut findings: Vec<String> = Vec::new();
                for k in o.known_discrepancies() {
                    if !findings.iter().any(|f| f == k.finding) {
                        findings.push(k.finding.to_string());
                    }
                }
                findings
            }
            Implementation::Command(_) => Vec::new(),
        },
    })
}

/// The report of a check with no classic case (only networks follow):
/// the implementation must still be available.
pub fn check_nothing(options: &CheckOptions) -> anyhow::Result<CheckReport> {
    check(&[], options)
}

fn result(case: &CorpusCase, status: Status, detail: impl Into<String>, started: Instant) -> CaseResult {
    CaseResult {
        name: case.name.clone(),
        group: case.group(),
        must_reject: matches!(case.expect, Expect::Reject(_)),
        status,
        detail: detail.into(),
        documented: None,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// What the case is expected to be: valid, or breaking its rule in the
/// way its mutator broke it.
fn expectation(case: &CorpusCase) -> Expectation {
    match &case.expect {
        Expect::Valid => Expectation::Valid,
        Expect::Reject(rule) => match RuleId::from_name(rule) {
            Some(rule) => Expectation::Breaks { rule, mutator: case.mutator.clone() },
            None => Expectation::Invalid { rules: Vec::new(), mutator: case.mutator.clone() },
        },
    }
}

/// A disagreement about the implementation that a conforming one would not
/// have, and the documented discrepancy it is (its minimal module), if it is one.
pub(super) struct Concern<'d> {
    /// The disagreement.
    pub(super) disagreement: &'d Disagreement,
    /// Its documented discrepancy's minimal module.
    pub(super) documented: Option<String>,
}

impl<'d> Concern<'d> {
    /// `d` as a concern of the oracle it names, as the disposition says: a
    /// finding or a documented one is; a note (outside the tool's contract)
    /// or one charged to no oracle is not.
    pub(super) fn of(d: &'d Disagreement) -> Option<Concern<'d>> {
        let documented = match d.disposition(DocumentedPolicy::Known) {
            Disposition::Finding => None,
            Disposition::Documented(doc) => Some(doc.finding.clone()),
            Disposition::Note | Disposition::Unjudged => return None,
        };
        Some(Concern { disagreement: d, documented })
    }
}

/// The first disagreement of `ds` about the oracle named `name` that concerns it ([`Concern::of`]).
pub(super) fn about<'d>(ds: &'d [Disagreement], name: &str) -> Option<Concern<'d>> {
    ds.iter().filter(|d| d.oracles.iter().any(|o| o == name)).find_map(Concern::of)
}

/// How a case fails when the implementation is wrong in the way of `kind`:
/// a crash when it could not answer at all, else a failure.
pub(super) fn status_of(kind: Kind) -> Status {
    match kind {
        Kind::Crash | Kind::Timeout | Kind::OutOfMemory | Kind::OracleError | Kind::ReaderCrash => Status::Crash,
        Kind::RejectsValid
        | Kind::MissesRule
        | Kind::WrongRule
        | Kind::ExtraRules
        | Kind::Stricter
        | Kind::Roundtrip
        | Kind::GeneratorInvariant
        | Kind::Panic
        | Kind::RefusedValid
        | Kind::WrongOutput
        | Kind::FormDiffers
        | Kind::ObservedFormDiffers
        | Kind::AcceptsInvalid
        | Kind::CheckerDisagreesWithReference
        | Kind::ProducerCrash
        | Kind::ProducerRejects
        | Kind::ProducerInvalidOutput
        | Kind::ProducerWrongSemantics
        | Kind::ReaderRejectsValid
        | Kind::ReaderDiffers
        | Kind::Regression
        | Kind::Fix => Status::Fail,
    }
}

fn validate_case(case: &CorpusCase, oracle: &dyn Oracle, profiles: &[Profile]) -> CaseResult {
    let started = Instant::now();
    if let Some(only) = &case.only_profiles {
        let has_extra = profiles.iter().any(|p| !only.iter().any(|o| o == p.name()));
        if has_extra {
            let detail = format!("breaks its rule only with exactly {} enabled", only.join(","));
            return result(case, Status::Skip, detail, started);
        }
    }
    let words = match case.words() {
        Ok(w) => w,
        Err(e) => return result(case, Status::Crash, format!("{e:#}"), started),
    };
    let Some(target_env) = TargetEnv::parse(&case.target_env) else {
        return result(case, Status::Crash, format!("unknown target environment {}", case.target_env), started);
    };
    let options = ValidateOptions { target_env, profiles: profiles.to_vec(), ..ValidateOptions::default() };
    let verdict = oracle.validator().and_then(|v| v.validate(&words, &options));
    let accepted = matches!(verdict, Ok(Verdict::Valid));
    let error = verdict.as_ref().err().map(ToString::to_string);
    let expectation = expectation(case);
    let observations = Observations {
        validity: vec![ValidityAnswer { oracle, verdict }],
        module: Some(&words),
        ..Observations::default()
    };
    let ds = judge(&expectation, &observations);
    let found = about(&ds, oracle.name());
    // The corpus asks what a conforming validator does: accept every valid
    // case and reject every invalid one, whatever rule it names. The
    // judgement says whether a wrong answer is a documented discrepancy; a
    // rule the validator is documented not to check is one too.
    let mut r = match (&case.expect, error, accepted) {
        (_, Some(e), _) => result(case, Status::Crash, e, started),
        (Expect::Valid, None, true) | (Expect::Reject(_), None, false) => result(case, Status::Pass, "", started),
        (Expect::Valid, None, false) => {
            let why = found.as_ref().map_or_else(
                || "rejects a valid module".to_string(),
                |c| first_line(&c.disagreement.detail).to_string(),
            );
            result(case, Status::Fail, why, started)
        }
        (Expect::Reject(rule), None, true) => {
            let mut r = result(case, Status::Fail, format!("accepts a module that breaks {rule}"), started);
            let unchecked = RuleId::from_name(rule).is_some_and(|id| oracle.rule_claim(id) == RuleClaim::Accepts);
            if found.is_none() && unchecked {
                r.documented = Some(format!("does not check {rule}"));
            }
            r
        }
    };
    if r.status == Status::Fail && r.documented.is_none() {
        r.documented = found.and_then(|c| c.documented);
    }
    r
}

fn read_case(case: &CorpusCase, oracle: &dyn Oracle) -> CaseResult {
    let started = Instant::now();
    let words = match case.words() {
        Ok(w) => w,
        Err(e) => return result(case, Status::Crash, format!("{e:#}"), started),
    };
    let outcome = oracle.reader().and_then(|r| r.read(&words));
    let observations = Observations {
        readings: vec![ReadingAnswer { oracle, subject: ReadSubject::Module(&words), outcome }],
        module: Some(&words),
        ..Observations::default()
    };
    let ds = judge(&expectation(case), &observations);
    // A valid case must be shown as it is; any case must be answered.
    let Some(Concern { disagreement: d, documented }) = about(&ds, oracle.name()) else {
        return result(case, Status::Pass, "", started);
    };
    let mut r = result(case, status_of(d.kind), format!("{}: {}", d.kind, first_line(&d.detail)), started);
    r.documented = documented;
    r
}

/// One entry point of one case, queued for an executor.
struct Job<'a> {
    case: usize,
    k: usize,
    expected: Vec<&'a ExpectedOutputRecord>,
}

/// The verdict on one entry point: status, detail, documented discrepancy.
type EntryVerdict = (Status, String, Option<String>);

/// An executor's answer to one request (`None`: not run), with its share of
/// the batch's wall time.
type Timed = (Option<Result<ExecOutcome, OracleError>>, f64);

fn execute_cases(cases: &[CorpusCase], oracle: &dyn Oracle, profiles: &[Profile]) -> Vec<CaseResult> {
    let mut results: Vec<Option<CaseResult>> = vec![None; cases.len()];
    let mut jobs = Vec::new();
    let started = Instant::now();
    for (i, case) in cases.iter().enumerate() {
        if let Err(why) = case.profiles_met(profiles) {
            results[i] = Some(result(case, Status::Skip, why, started));
            continue;
        }
        for k in 0..case.manifest.entry_points.len() {
            jobs.push(Job { case: i, k, expected: case.expected(k) });
        }
    }
    let requests: Vec<Result<OwnedExecRequest, String>> =
        jobs.iter().map(|j| cases[j.case].request(j.k).map_err(|e| format!("{e:#}"))).collect();
    let runs = run_batches(oracle, &requests);
    // Per case, the first failing entry point decides; crashes before failures.
    let mut per_case: Vec<Vec<(EntryVerdict, f64)>> = vec![Vec::new(); cases.len()];
    for ((job, request), (run, secs)) in jobs.iter().zip(&requests).zip(runs) {
        let verdict = match (request, run) {
            (Err(e), _) => (Status::Crash, format!("ep{}: the case's files do not load: {e}", job.k), None),
            (Ok(request), run) => judge_run(&cases[job.case], job, request, oracle, run),
        };
        per_case[job.case].push((verdict, secs));
    }
    for (i, verdicts) in per_case.into_iter().enumerate() {
        if results[i].is_some() || verdicts.is_empty() {
            continue;
        }
        let seconds: f64 = verdicts.iter().map(|v| v.1).sum();
        let worst = [Status::Crash, Status::Fail, Status::Pass, Status::Skip]
            .into_iter()
            .find_map(|s| verdicts.iter().find(|v| v.0 .0 == s))
            .cloned();
        if let Some(((status, detail, documented), _)) = worst {
            let mut r = result(&cases[i], status, detail, Instant::now());
            r.seconds = seconds;
            r.documented = documented;
            results[i] = Some(r);
        }
    }
    results.into_iter().flatten().collect()
}

/// Runs every loadable request on `oracle`, in its preferred batches; one
/// answer per request (`None` for those that did not load) with its share
/// of the batch's wall time.
fn run_batches(oracle: &dyn Oracle, requests: &[Result<OwnedExecRequest, String>]) -> Vec<Timed> {
    let batch = oracle.preferred_batch().max(1);
    let indices: Vec<usize> = (0..requests.len()).collect();
    let chunks: Vec<&[usize]> = indices.chunks(batch).collect();
    let answers: Vec<Vec<Timed>> = chunks
        .par_iter()
        .map(|chunk| {
            let t0 = Instant::now();
            let ready: Vec<usize> = chunk.iter().copied().filter(|&i| requests[i].is_ok()).collect();
            let owned: Vec<&OwnedExecRequest> = ready.iter().filter_map(|&i| requests[i].as_ref().ok()).collect();
            let borrowed: Vec<_> = owned.iter().map(|r| r.request()).collect();
            let outcomes = match oracle.executor() {
                Ok(e) => e.execute_batch(&borrowed),
                Err(e) => borrowed.iter().map(|_| Err(e.clone())).collect(),
            };
            let per = t0.elapsed().as_secs_f64() / chunk.len().max(1) as f64;
            let mut by_index = ready.iter().copied().zip(outcomes).collect::<std::collections::BTreeMap<_, _>>();
            chunk.iter().map(|i| (by_index.remove(i), per)).collect()
        })
        .collect();
    answers.into_iter().flatten().collect()
}

/// Judges one entry point's run with the one judgement: the case's stored
/// outputs are the reference the run is compared with, and its stored fp64
/// references and bounds ([`StoredReference`]) the referee.
fn judge_run(
    case: &CorpusCase,
    job: &Job<'_>,
    request: &OwnedExecRequest,
    oracle: &dyn Oracle,
    run: Option<Result<ExecOutcome, OracleError>>,
) -> EntryVerdict {
    let k = job.k;
    let outcome = match run {
        None => return (Status::Crash, format!("ep{k}: no answer from the batch"), None),
        // The adapter declines what it cannot drive (tensor arrays) or
        // works around (a documented bug): the implementation was never asked.
        Some(Err(e @ (OracleError::Unavailable { .. } | OracleError::Unsupported { .. }))) => {
            return (Status::Skip, format!("ep{k}: not run: {e}"), None)
        }
        Some(Ok(ExecOutcome::Refused { kind: kind @ (Refusal::Unsupported | Refusal::OverBudget), reason })) => {
            return (Status::Skip, format!("ep{k}: not run: {kind:?}: {}", first_line(&reason)), None)
        }
        Some(o) => o,
    };
    let unjudged: Vec<String> =
        job.expected.iter().filter_map(|e| unjudgeable(e).map(|why| format!("out{}: {why}", e.output))).collect();
    if matches!(outcome, Ok(ExecOutcome::Outputs(_))) && unjudged.len() == job.expected.len() {
        return (Status::Skip, format!("ep{k}: no output can be judged ({})", unjudged.join("; ")), None);
    }
    let stored = match StoredReference::read(case, job, request) {
        Ok(s) => s,
        Err(e) => return (Status::Crash, format!("ep{k}: the case's files do not load: {e}"), None),
    };
    let observations = Observations {
        request: Some(request.request()),
        reference: Some(ExecOutcome::Outputs(stored.typed.clone())),
        executions: vec![ExecAnswer { oracle, outcome, observed: None }],
        referee: Some(&stored),
        operators: case.manifest.ops.iter().filter_map(|o| TosaOp::from_name(o)).collect(),
        ..Observations::default()
    };
    let ds = judge(&Expectation::Valid, &observations);
    let Some(Concern { disagreement: d, documented }) = about(&ds, oracle.name()) else {
        return (Status::Pass, String::new(), None);
    };
    (status_of(d.kind), format!("ep{k}: {}: {}", d.kind.name(), first_line(&d.detail)), documented)
}

/// Why a stored output cannot be judged, if it cannot: an approximation
/// upstream, no compliance mode, or a mode that needs a bounds tensor the
/// corpus does not store (the judgement would find it incomparable and say
/// nothing, which is no pass).
fn unjudgeable(e: &ExpectedOutputRecord) -> Option<String> {
    if e.upstream_inexact {
        return Some("an upstream operator is inexact".into());
    }
    if e.compliance.is_null() {
        return Some("no compliance mode".into());
    }
    match serde_json::from_value::<Mode>(e.compliance.clone()) {
        Err(err) => Some(format!("compliance: {err}")),
        Ok(mode) if mode.needs_bounds() && e.bounds.is_none() => {
            Some(format!("{} comparison needs a bounds tensor the corpus does not store", mode.name()))
        }
        Ok(_) => None,
    }
}

/// The referee of a corpus case: the precise run the corpus stored (fp64
/// references and bounds where the mode needs them, else the expected
/// outputs themselves), answered for the case's own request only.
struct StoredReference {
    /// The expected outputs, typed.
    typed: Vec<TensorData>,
    /// The precise run.
    precise: Vec<PreciseOutput>,
    /// The inputs it was computed from.
    inputs: Vec<TensorData>,
}

impl StoredReference {
    fn read(case: &CorpusCase, job: &Job<'_>, request: &OwnedExecRequest) -> Result<StoredReference, String> {
        let dir = &case.dir;
        let mut typed = Vec::new();
        let mut precise = Vec::new();
        for e in &job.expected {
            let path = dir.join(&e.file);
            let t = TensorData::read_npy(&path, e.elem).map_err(|err| format!("{}: {err}", path.display()))?;
            let reference = match &e.reference {
                Some(f) => read_bounds(&dir.join(f), e)?,
                None => ReferenceTensor::Typed(t.clone()),
            };
            let bounds = e.bounds.as_ref().map(|f| read_bounds(&dir.join(f), e)).transpose()?;
            typed.push(t);
            precise.push(PreciseOutput { reference, bounds });
        }
        Ok(StoredReference { typed, precise, inputs: request.inputs.clone() })
    }
}

/// Who [`StoredReference`] is as an oracle.
static STORED: Instance = Instance::release("the corpus's expected outputs");

impl Oracle for StoredReference {
    fn instance(&self) -> &Instance {
        &STORED
    }

    fn available(&self) -> Result<(), OracleError> {
        Ok(())
    }

    fn version(&self) -> Option<String> {
        None
    }

    fn components(&self) -> &'static [Owner] {
        &[]
    }

    spvgraph_oracle::capabilities! { validator: no, executor: no, producer: no, reader: no, referee: yes }
}

impl Referee for StoredReference {
    fn execute_precise(&self, request: &ExecRequest<'_>) -> Result<PreciseOutcome, OracleError> {
        // Stored for these inputs only (not, say, with subnormals flushed).
        if request.inputs != self.inputs.as_slice() {
            return Err(OracleError::Unsupported {
                oracle: STORED.name().to_string(),
                what: "the corpus stores the precise run of the case's own inputs only",
            });
        }
        Ok(PreciseOutcome::Outputs(self.precise.clone()))
    }
}

/// A reference or bounds tensor: fp64 (`<f8`) from a precise run, or in
/// the output's own type (RESCALE's INEXACT_ROUND limits).
fn read_bounds(path: &Path, e: &ExpectedOutputRecord) -> Result<ReferenceTensor, String> {
    let a = NpyArray::read(path).map_err(|err| format!("{}: {err}", path.display()))?;
    if a.descr() == "<f8" {
        let values = a.to_f64().ok_or_else(|| format!("{}: not a float array", path.display()))?;
        return Ok(ReferenceTensor::Precise { shape: a.shape().to_vec(), values });
    }
    a.to_tensor(e.elem).map(ReferenceTensor::Typed).map_err(|err| format!("{}: {err}", path.display()))
}

fn first_line(s: &str) -> &str {
    s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
}

/// The default limits of one command run.
pub fn default_limits(timeout: Duration) -> Limits {
    Limits { timeout, ..Limits::default() }
}

/// Parses a comma-separated profile list (`PRO-INT,PRO-FP,EXT-FFT`; `all`).
pub fn parse_profiles(list: &str) -> anyhow::Result<Vec<Profile>> {
    if list.trim().eq_ignore_ascii_case("all") {
        return Ok(Profile::ALL.to_vec());
    }
    let mut out = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some(p) = Profile::from_name(&name.to_ascii_uppercase()) else {
            let known: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
            bail!("unknown profile {name:?} (known: {})", known.join(", "));
        };
        out.push(p);
    }
    Ok(out)
}

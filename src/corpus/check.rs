//! `corpus check`: runs one implementation on every case and judges it.
//!
//! A validator must accept every case of `valid/` and `pipeline/` (module
//! validity; pipeline rules are not module rules) and reject every case of
//! `invalid/`. An executor runs every entry point of every case that has
//! expected outputs, and each output is judged with the TOSA compliance
//! rules ([`spvgraph_oracle::compliance::compare_with_mode`]) against the
//! expected output, or against the reference model's fp64 result and bounds
//! where the corpus keeps them. Cases needing a profile or extension the
//! implementation lacks are skipped and counted; crashes and timeouts are
//! failures of their own kind, and the run goes on.

use super::cases::{CorpusCase, Expect};
use super::template::{self, Vars};
use anyhow::{anyhow, bail};
use rayon::prelude::*;
use serde::Serialize;
use spvgraph_generator::files::ExpectedOutputRecord;
use spvgraph_ir::elem::Profile;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::npy::NpyArray;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_oracle::compliance::{compare_with_mode, Mode, ReferenceTensor};
use spvgraph_oracle::external::process::{self, Ended, Limits, ScratchDir};
use spvgraph_oracle::oracle::{
    ExecOutcome, Oracle, OracleError, OwnedExecRequest, Refusal, RuleClaim, ValidateOptions,
};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// What the implementation is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Accept or reject each module.
    Validator,
    /// Run each graph and write its outputs.
    Executor,
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
    match &options.implementation {
        Implementation::Oracle(o) => o.available().map_err(|e| anyhow!("{e}"))?,
        Implementation::Command(t) => template::check(t)?,
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(options.jobs.max(1)).build()?;
    let results = pool.install(|| match options.role {
        Role::Validator => cases.par_iter().map(|c| validate_case(c, options)).collect::<Vec<_>>(),
        Role::Executor => execute_cases(cases, options),
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

/// A validator's answer.
enum Answer {
    Accept,
    Reject(String),
    Crash(String),
}

fn validate_case(case: &CorpusCase, options: &CheckOptions) -> CaseResult {
    let started = Instant::now();
    if let Some(only) = &case.only_profiles {
        let has_extra = options.profiles.iter().any(|p| !only.iter().any(|o| o == p.name()));
        if has_extra {
            let detail = format!("breaks its rule only with exactly {} enabled", only.join(","));
            return result(case, Status::Skip, detail, started);
        }
    }
    let answer = match &options.implementation {
        Implementation::Oracle(o) => validate_with_oracle(o.as_ref(), case, &options.profiles),
        Implementation::Command(t) => {
            let vars = Vars { spv: case.spv(), target_env: case.target_env.clone(), ..Vars::default() };
            match run_template(t, &vars, &options.limits) {
                Err(e) => Answer::Crash(e.to_string()),
                Ok((_, Ended::Abnormal(a), tail)) => Answer::Crash(format!("{a}: {tail}")),
                Ok((_, Ended::Exited(0), _)) => Answer::Accept,
                Ok((_, Ended::Exited(c), tail)) => Answer::Reject(format!("exit status {c}: {tail}")),
            }
        }
    };
    let mut r = match (&case.expect, answer) {
        (_, Answer::Crash(d)) => result(case, Status::Crash, d, started),
        (Expect::Valid, Answer::Accept) | (Expect::Reject(_), Answer::Reject(_)) => {
            result(case, Status::Pass, "", started)
        }
        (Expect::Valid, Answer::Reject(why)) => {
            result(case, Status::Fail, format!("rejects a valid module: {}", first_line(&why)), started)
        }
        (Expect::Reject(rule), Answer::Accept) => {
            result(case, Status::Fail, format!("accepts a module that breaks {rule}"), started)
        }
    };
    if r.status == Status::Fail {
        if let Implementation::Oracle(o) = &options.implementation {
            r.documented = documented_validation(o.as_ref(), case, &r.detail);
        }
    }
    r
}

fn validate_with_oracle(oracle: &dyn Oracle, case: &CorpusCase, profiles: &[Profile]) -> Answer {
    let words = match case.words() {
        Ok(w) => w,
        Err(e) => return Answer::Crash(format!("{e:#}")),
    };
    let Some(target_env) = TargetEnv::parse(&case.target_env) else {
        return Answer::Crash(format!("unknown target environment {}", case.target_env));
    };
    let options = ValidateOptions { target_env, profiles: profiles.to_vec(), ..ValidateOptions::default() };
    match oracle.validate(&words, &options) {
        Ok(v) if v.is_valid() => Answer::Accept,
        Ok(v) => Answer::Reject(format!("{v:?}")),
        Err(e) => Answer::Crash(e.to_string()),
    }
}

/// The documented discrepancy a validator's failure on `case` is, if any:
/// a known row for the case's rule (and mutator), or a rule the oracle
/// declares it does not check; for a rejected valid module, a known row
/// whose message the rejection carries.
fn documented_validation(oracle: &dyn Oracle, case: &CorpusCase, detail: &str) -> Option<String> {
    let known = oracle.known_discrepancies();
    match &case.expect {
        Expect::Reject(rule) => {
            let id = RuleId::from_name(rule)?;
            let row = known
                .iter()
                .find(|k| k.rule == Some(id) && k.mutator.is_none_or(|m| case.mutator.as_deref() == Some(m)));
            match row {
                Some(k) => Some(k.finding.to_string()),
                None if oracle.rule_claim(id) == RuleClaim::Accepts => Some(format!("does not check {rule}")),
                None => None,
            }
        }
        Expect::Valid => known
            .iter()
            .find(|k| k.message.is_some_and(|m| detail.contains(m)) && k.rule.is_none())
            .map(|k| k.finding.to_string()),
    }
}

/// One entry point of one case, queued for an executor.
struct Job<'a> {
    case: usize,
    k: usize,
    expected: Vec<&'a ExpectedOutputRecord>,
}

/// What an executor did with one entry point.
enum Run {
    Outputs(Vec<TensorData>),
    Declined(String),
    Refused(String),
    Crash(String),
}

fn execute_cases(cases: &[CorpusCase], options: &CheckOptions) -> Vec<CaseResult> {
    let mut results: Vec<Option<CaseResult>> = vec![None; cases.len()];
    let mut jobs = Vec::new();
    let started = Instant::now();
    for (i, case) in cases.iter().enumerate() {
        if let Err(why) = case.profiles_met(&options.profiles) {
            results[i] = Some(result(case, Status::Skip, why, started));
            continue;
        }
        for k in 0..case.manifest.entry_points.len() {
            jobs.push(Job { case: i, k, expected: case.expected(k) });
        }
    }
    let runs: Vec<(Run, f64)> = match &options.implementation {
        Implementation::Oracle(o) => run_oracle(o.as_ref(), cases, &jobs),
        Implementation::Command(t) => jobs
            .par_iter()
            .map(|j| {
                let t0 = Instant::now();
                (run_command(t, &cases[j.case], j, &options.limits), t0.elapsed().as_secs_f64())
            })
            .collect(),
    };
    // Per case, the first failing entry point decides; crashes before failures.
    let mut per_case: Vec<Vec<(Status, String, f64)>> = vec![Vec::new(); cases.len()];
    for (job, (run, secs)) in jobs.iter().zip(runs) {
        let case = &cases[job.case];
        let (status, detail) = judge_run(case, job, run);
        per_case[job.case].push((status, detail, secs));
    }
    for (i, verdicts) in per_case.into_iter().enumerate() {
        if results[i].is_some() || verdicts.is_empty() {
            continue;
        }
        let seconds: f64 = verdicts.iter().map(|v| v.2).sum();
        let worst = [Status::Crash, Status::Fail, Status::Pass, Status::Skip]
            .into_iter()
            .find_map(|s| verdicts.iter().find(|v| v.0 == s))
            .cloned();
        if let Some((status, detail, _)) = worst {
            let mut r = result(&cases[i], status, detail, Instant::now());
            r.seconds = seconds;
            if let (Status::Fail | Status::Crash, Implementation::Oracle(o)) = (status, &options.implementation) {
                r.documented = documented_execution(o.as_ref(), &cases[i], status, &r.detail);
            }
            results[i] = Some(r);
        }
    }
    results.into_iter().flatten().collect()
}

/// The executor's documented discrepancy a failure is: a known row whose
/// message the failure carries, or one about an operator of the case whose
/// kind is the failure's (a crash, a refusal, a wrong output).
fn documented_execution(oracle: &dyn Oracle, case: &CorpusCase, status: Status, detail: &str) -> Option<String> {
    let known = oracle.known_discrepancies();
    let kind = match status {
        Status::Crash => "crash",
        _ if detail.contains("refused a valid graph") => "refused-valid",
        _ => "wrong-output",
    };
    known
        .iter()
        .find(|k| k.message.is_some_and(|m| detail.contains(m)))
        .or_else(|| {
            known.iter().find(|k| {
                k.kind == kind
                    && k.message.is_none()
                    && k.operator.is_some_and(|op| case.manifest.ops.iter().any(|o| o == op.name()))
            })
        })
        .map(|k| k.finding.to_string())
}

fn run_oracle(oracle: &dyn Oracle, cases: &[CorpusCase], jobs: &[Job<'_>]) -> Vec<(Run, f64)> {
    let requests: Vec<Result<OwnedExecRequest, String>> =
        jobs.iter().map(|j| cases[j.case].request(j.k).map_err(|e| format!("{e:#}"))).collect();
    let batch = oracle.preferred_batch().max(1);
    let indices: Vec<usize> = (0..jobs.len()).collect();
    let chunks: Vec<&[usize]> = indices.chunks(batch).collect();
    let answers: Vec<Vec<(Run, f64)>> = chunks
        .par_iter()
        .map(|chunk| {
            let t0 = Instant::now();
            let ready: Vec<usize> = chunk.iter().copied().filter(|&i| requests[i].is_ok()).collect();
            let owned: Vec<&OwnedExecRequest> = ready.iter().filter_map(|&i| requests[i].as_ref().ok()).collect();
            let borrowed: Vec<_> = owned.iter().map(|r| r.request()).collect();
            let outcomes = oracle.execute_batch(&borrowed);
            let per = t0.elapsed().as_secs_f64() / chunk.len().max(1) as f64;
            let mut by_index = ready.iter().copied().zip(outcomes).collect::<std::collections::BTreeMap<_, _>>();
            chunk
                .iter()
                .map(|i| {
                    let run = match (&requests[*i], by_index.remove(i)) {
                        (Err(e), _) => Run::Crash(format!("the case's files do not load: {e}")),
                        (Ok(_), Some(Ok(ExecOutcome::Outputs(o)))) => Run::Outputs(o),
                        // The adapter declines what it cannot drive (tensor
                        // arrays) or works around (a documented bug): the
                        // implementation was never asked.
                        (
                            Ok(_),
                            Some(Ok(ExecOutcome::Refused {
                                kind: kind @ (Refusal::Unsupported | Refusal::OverBudget),
                                reason,
                            })),
                        ) => Run::Declined(format!("{kind:?}: {}", first_line(&reason))),
                        (Ok(_), Some(Ok(ExecOutcome::Refused { kind, reason }))) => {
                            Run::Refused(format!("{kind:?}: {}", first_line(&reason)))
                        }
                        (Ok(_), Some(Ok(ExecOutcome::Abnormal { how, detail }))) => {
                            Run::Crash(format!("{how}: {}", first_line(&detail)))
                        }
                        (Ok(_), Some(Err(e @ OracleError::Failed { .. }))) => Run::Crash(e.to_string()),
                        // The adapter cannot drive the tool for this graph
                        // (scenario-runner binds no tensor arrays): the
                        // implementation was never asked.
                        (Ok(_), Some(Err(e))) => Run::Declined(e.to_string()),
                        (Ok(_), None) => Run::Crash("no answer from the batch".into()),
                    };
                    (run, per)
                })
                .collect()
        })
        .collect();
    answers.into_iter().flatten().collect()
}

/// Runs an executor template for one entry point and reads `out<j>.npy`.
fn run_command(template: &str, case: &CorpusCase, job: &Job<'_>, limits: &Limits) -> Run {
    let m = &case.manifest;
    let Some(ep) = m.entry_points.get(job.k) else { return Run::Crash(format!("no entry point {}", job.k)) };
    let mut inputs: Vec<_> = m.inputs.iter().filter(|i| i.entry_point == job.k).collect();
    inputs.sort_by_key(|i| (i.index, i.element));
    let scratch = match ScratchDir::new("corpus-check") {
        Ok(s) => s,
        Err(e) => return Run::Crash(e.to_string()),
    };
    let out_dir = scratch.join("out");
    if let Err(e) = std::fs::create_dir_all(&out_dir) {
        return Run::Crash(format!("{}: {e}", out_dir.display()));
    }
    let vars = Vars {
        spv: case.spv(),
        target_env: case.target_env.clone(),
        entry_point: ep.name.clone(),
        inputs: inputs.iter().map(|i| case.dir.join(&i.file)).collect(),
        graph_constants: m.graph_constants.iter().map(|(id, f)| (*id, case.dir.join(f))).collect(),
        out_dir: out_dir.clone(),
    };
    match run_template(template, &vars, limits) {
        Err(e) => Run::Crash(e.to_string()),
        Ok((_, Ended::Abnormal(a), tail)) => Run::Crash(format!("{a}: {}", first_line(&tail))),
        Ok((_, Ended::Exited(c), tail)) if c != 0 => Run::Refused(format!("exit status {c}: {}", first_line(&tail))),
        Ok(_) => {
            let mut outputs = Vec::new();
            for e in &job.expected {
                let path = out_dir.join(format!("out{}.npy", e.output));
                match TensorData::read_npy(&path, e.elem) {
                    Ok(t) => outputs.push(t),
                    Err(err) => return Run::Refused(format!("out{}.npy: {err}", e.output)),
                }
            }
            Run::Outputs(outputs)
        }
    }
}

/// Expands and runs a template under `sh -c` in a scratch directory;
/// returns the line run, how it ended and the tail of what it printed.
fn run_template(template: &str, vars: &Vars, limits: &Limits) -> anyhow::Result<(String, Ended, String)> {
    let line = template::expand(template, vars)?;
    let scratch = ScratchDir::new("corpus-cmd")?;
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(&line);
    let run = process::run(cmd, scratch.path(), limits)?;
    let tail = run.tail(5);
    Ok((line, run.ended, tail))
}

/// Judges one entry point's run: outputs under the TOSA compliance rules.
fn judge_run(case: &CorpusCase, job: &Job<'_>, run: Run) -> (Status, String) {
    let k = job.k;
    let outputs = match run {
        Run::Crash(d) => return (Status::Crash, format!("ep{k}: {d}")),
        Run::Declined(d) => return (Status::Skip, format!("ep{k}: not run: {d}")),
        Run::Refused(d) => return (Status::Fail, format!("ep{k}: refused a valid graph: {d}")),
        Run::Outputs(o) => o,
    };
    if outputs.len() != job.expected.len() {
        let detail = format!("ep{k}: {} outputs where {} were expected", outputs.len(), job.expected.len());
        return (Status::Fail, detail);
    }
    let mut judged = 0usize;
    let mut unjudged = Vec::new();
    for (e, got) in job.expected.iter().zip(&outputs) {
        match judge_output(&case.dir, e, got) {
            Ok(None) => judged += 1,
            Ok(Some(fail)) => return (Status::Fail, format!("ep{k} out{}: {fail}", e.output)),
            Err(why) => unjudged.push(format!("out{}: {why}", e.output)),
        }
    }
    if judged == 0 {
        return (Status::Skip, format!("ep{k}: no output can be judged ({})", unjudged.join("; ")));
    }
    (Status::Pass, String::new())
}

/// `Ok(None)` compliant, `Ok(Some(why))` not, `Err` cannot be judged.
pub fn judge_output(dir: &Path, e: &ExpectedOutputRecord, got: &TensorData) -> Result<Option<String>, String> {
    if e.upstream_inexact {
        return Err("an upstream operator is inexact".into());
    }
    let shape: Vec<usize> = e.shape.iter().map(|&d| d as usize).collect();
    if got.elem() != e.elem || got.shape() != shape.as_slice() {
        return Ok(Some(format!("{} {:?} where {} {:?} was expected", got.elem(), got.shape(), e.elem, shape)));
    }
    if e.compliance.is_null() {
        return Err("no compliance mode".into());
    }
    let mode: Mode = serde_json::from_value(e.compliance.clone()).map_err(|err| format!("compliance: {err}"))?;
    let reference = match &e.reference {
        Some(f) => read_bounds(&dir.join(f), e)?,
        None => {
            let path = dir.join(&e.file);
            ReferenceTensor::Typed(
                TensorData::read_npy(&path, e.elem).map_err(|err| format!("{}: {err}", path.display()))?,
            )
        }
    };
    let bounds = e.bounds.as_ref().map(|f| read_bounds(&dir.join(f), e)).transpose()?;
    match compare_with_mode(&mode, &reference, got, bounds.as_ref()) {
        Ok(v) if v.pass => Ok(None),
        Ok(v) => Ok(Some(v.to_string())),
        Err(err) => Err(err.to_string()),
    }
}

/// A reference or bounds tensor: fp64 (`<f8`) from a precise run, or in
/// the output's own type (RESCALE's INEXACT_ROUND limits).
fn read_bounds(path: &Path, e: &ExpectedOutputRecord) -> Result<ReferenceTensor, String> {
    let a = NpyArray::read(path).map_err(|err| format!("{}: {err}", path.display()))?;
    if a.descr() == "<f8" {
        return read_precise(path);
    }
    a.to_tensor(e.elem).map(ReferenceTensor::Typed).map_err(|err| format!("{}: {err}", path.display()))
}

fn read_precise(path: &Path) -> Result<ReferenceTensor, String> {
    let a = NpyArray::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let values = a.to_f64().ok_or_else(|| format!("{}: not a float array", path.display()))?;
    Ok(ReferenceTensor::Precise { shape: a.shape().to_vec(), values })
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

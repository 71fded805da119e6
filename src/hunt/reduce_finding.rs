//! Every finding reduced: before the hunt writes a new signature's finding,
//! its case is shrunk with `spvgraph_reducer` for as long as the same
//! signature still appears when the candidate is judged again through the
//! hunt's own path (round-trip and validators, then, for a backend's or a
//! producer's finding, its batch run; each ends in `spvgraph_oracle::judge`).
//! The finding keeps the original next to the reduced case as `STEM.orig.*`.
//!
//! `spvgraph reduce --finding DIR` uses the same predicate on a stored
//! finding ([`stored_case`], [`reduce_in_place`]).

use super::batch;
use super::case::{CaseOutcome, Hunter, RoundTrip, Subject};
use super::guard::guard;
use super::oracles::{OracleSet, Sampled};
use crate::reduce;
use anyhow::Context;
use serde_json::{json, Value};
use spvgraph_generator::files::Extras;
use spvgraph_generator::near_valid::NearValid;
use spvgraph_ir::elem::Profile;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::Module;
use spvgraph_oracle::features::{self, FeatureSet};
use spvgraph_oracle::judge::{Disagreement, Documented};
use spvgraph_oracle::registry::OracleConfig;
use spvgraph_reducer::{Candidate, Expect, Info};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The manifest fields that describe the case's files and contents (the
/// rest, such as the seed and the expectation, describe where it came from).
const CASE_FIELDS: &[&str] = &[
    "spv",
    "spvasm",
    "mlir",
    "mlir_errors",
    "ops",
    "type_rows",
    "inputs",
    "graph_constants",
    "entry_points",
    "features",
];

/// How findings are reduced.
#[derive(Clone, Debug)]
pub struct FindingReduction {
    /// Per finding of the validators and the round-trip (fast to judge):
    /// stop with the smallest candidate so far after this long.
    pub time_limit: Duration,
    /// Per finding of a sampled backend or producer, whose every judgement
    /// runs it (IREE compiles at about 2 cases/s): a budget of its own.
    pub slow_time_limit: Duration,
    /// Predicate calls at once.
    pub jobs: usize,
    /// How long the reductions still queued may go on after the hunt's last
    /// case; a finding whose turn comes later stays as found.
    pub tail: Duration,
}

impl FindingReduction {
    /// The budget of the finding of `d`: the slow one when an oracle it
    /// names is one of the hunt's sampled backends or producers.
    /// `until` is the end of the hunt's reduction tail, once its cases are
    /// done: no budget runs past it.
    pub fn budget(&self, hunter: &Hunter<'_>, d: &Disagreement, until: Option<Instant>) -> Duration {
        let oracles = hunter.oracles;
        let mut sampled = oracles.executors.iter().chain(&oracles.producers);
        let own =
            if sampled.any(|s| d.oracles.iter().any(|o| s.has(o))) { self.slow_time_limit } else { self.time_limit };
        capped(own, until, Instant::now())
    }
}

/// A budget of `own`, cut at `until` when that is set (zero once it passed).
fn capped(own: Duration, until: Option<Instant>, now: Instant) -> Duration {
    match until {
        Some(end) => own.min(end.saturating_duration_since(now)),
        None => own,
    }
}

/// A finding's case, reduced.
pub struct Reduction {
    /// The smallest candidate on which the signature still appears.
    pub reduced: Candidate,
    /// The reducer's statistics.
    pub info: Info,
    /// The finding matched again on the reduced case ([`rematch`]): `None`
    /// when the signature did not appear again (then the judgement of the
    /// case as found stands).
    pub rematch: Option<Rematch>,
}

/// What the judgement says of the reduced case: whether it is an instance of
/// a documented discrepancy, and which module features it still has.
#[derive(Clone, Debug, PartialEq)]
pub struct Rematch {
    /// The documented discrepancy the reduced case is an instance of.
    pub documented: Option<Documented>,
    /// The reduced module's features.
    pub features: FeatureSet,
}

/// Judges the reduced candidate `c` once more and matches the finding of
/// signature `key` against the documented discrepancies again: a reduced
/// module that still shows a documented root cause (its features) is
/// documented whatever operator the case went through, and one that lost
/// the feature while keeping the signature is not. `None` when the
/// signature does not appear again.
pub fn rematch(
    hunter: &Hunter<'_>,
    case: &CaseOutcome,
    c: &Candidate,
    oracles: &[String],
    key: &str,
) -> Option<Rematch> {
    let again = judge_again(hunter, case, c, oracles, key);
    let d = again.into_iter().find(|x| x.signature().key() == key)?;
    Some(Rematch { documented: d.documented, features: features::detect(&c.module, None) })
}

impl Reduction {
    /// What a finding's manifest records about the reduction (`reduction`).
    pub fn json(&self, original_stem: &str) -> Value {
        let (a, b) = (&self.info.initial, &self.info.result);
        json!({
            "original": format!("{original_stem}.spv"),
            "predicate": "the finding's signature appears when the candidate is judged again",
            "bytes": { "original": a.bytes(), "reduced": b.bytes() },
            "instructions": { "original": a.instructions, "reduced": b.instructions },
            "nodes": { "original": a.nodes, "reduced": b.nodes },
            "steps": self.info.steps,
            "predicate_calls": self.info.predicate_calls,
            "seconds": (self.info.elapsed.as_secs_f64() * 10.0).round() / 10.0,
            "time_limit_reached": self.info.timed_out,
        })
    }

    /// One line for people.
    pub fn summary(&self, slug: &str) -> String {
        let (a, b) = (&self.info.initial, &self.info.result);
        format!(
            "reduced {slug}: {} B, {} nodes -> {} B, {} nodes in {:.1} s ({} tests{})",
            a.bytes(),
            a.nodes,
            b.bytes(),
            b.nodes,
            self.info.elapsed.as_secs_f64(),
            self.info.predicate_calls,
            if self.info.timed_out { ", time limit reached" } else { "" }
        )
    }
}

/// The module a case's oracles saw (`None` when there is none, or a
/// near-valid module that does not decode: binary rules cannot be reduced).
fn module_of(case: &CaseOutcome) -> Option<Module> {
    match &case.subject {
        Subject::Valid(c) => Some(c.module.clone()),
        Subject::NearValid(nv) => Module::decode_words(&nv.words).ok(),
        Subject::Nothing => None,
    }
}

/// The disagreements of candidate `c` in place of `original`'s case: the
/// same seed, expectation, target environment and profiles, judged by the
/// round-trip and validators, and, when `executors` names sampled backends
/// or producers of the hunt that take the seed, by their batch run.
pub fn judge_again(
    hunter: &Hunter<'_>,
    original: &CaseOutcome,
    c: &Candidate,
    executors: &[String],
    key: &str,
) -> Vec<Disagreement> {
    let Ok(words) = c.module.encode_words() else { return Vec::new() };
    let base = reduce::candidate_to_case(c);
    let subject = match &original.subject {
        Subject::Valid(_) => Subject::Valid(base),
        Subject::NearValid(nv) => Subject::NearValid(NearValid { base, words: words.clone(), ..nv.clone() }),
        Subject::Nothing => return Vec::new(),
    };
    let mut out = CaseOutcome {
        subject,
        words: Some(words.clone()),
        roundtrip: RoundTrip::NotRun,
        answers: Vec::new(),
        durations: Vec::new(),
        entry: None,
        operators: Vec::new(),
        disagreements: Vec::new(),
        ..original.clone()
    };
    hunter.check(&mut out, &words);
    let mut found = std::mem::take(&mut out.disagreements);
    let takes = |m: &Sampled| executors.iter().any(|n| m.has(n)) && m.takes(original.seed);
    let oracles = hunter.oracles;
    let members: Vec<(&Sampled, bool)> = (oracles.executors.iter().map(|m| (m, false)))
        .chain(oracles.producers.iter().map(|m| (m, true)))
        .filter(|(m, _)| takes(m))
        .collect();
    if !members.is_empty() {
        if let Some(p) = hunter.pending(&mut out, words) {
            found.append(&mut out.disagreements);
            for (m, producer) in members {
                let result = if producer {
                    if p.mlir.is_none() {
                        continue;
                    }
                    batch::run_producer(m, hunter.oracles, vec![p.clone()])
                } else {
                    // Only the form the finding is about (a form-differs
                    // pair names it): the others would only cost time.
                    let wanted = form_of(key);
                    let wants = |_: &super::case::Pending, r: &spvgraph_oracle::forms::Rewritten| {
                        wanted.as_deref() == Some(r.label().as_str())
                    };
                    batch::run_executor(m, hunter.oracles, vec![p.clone()], &wants)
                };
                for case in result.cases {
                    found.extend(case.disagreements);
                }
            }
        }
    }
    found
}

/// The equivalent form a signature's discriminator names (`as-given vs
/// FORM` of a form-differs finding), if any.
fn form_of(key: &str) -> Option<String> {
    let prefix = format!("{} vs ", spvgraph_oracle::judge::forms::AS_GIVEN);
    let rest = &key[key.find(&prefix)? + prefix.len()..];
    Some(rest.split(" |").next().unwrap_or(rest).trim().to_string())
}

/// Reduces the case of disagreement `d` while its signature still appears
/// ([`judge_again`]); every candidate breaks exactly the rules the case
/// breaks. `None` when the case has no module to reduce, or the signature
/// does not appear again (a generator invariant, a flaky backend); `note`
/// hears what happened.
pub fn reduce(
    hunter: &Hunter<'_>,
    settings: &FindingReduction,
    case: &CaseOutcome,
    d: &Disagreement,
    until: Option<Instant>,
    note: &dyn Fn(String),
) -> Option<Reduction> {
    let sig = d.signature();
    let slug = sig.slug();
    let module = module_of(case)?;
    let original = reduce::candidate_from_case(module, case.subject.case()?);
    let budget = settings.budget(hunter, d, until);
    if budget.is_zero() {
        note(format!("{slug} kept as found: the reductions' time after the last case (--reduce-tail) ran out"));
        return None;
    }
    note(format!("reducing {slug} (at most {:.0} s)", budget.as_secs_f64()));
    let key = sig.key();
    let options = reduce::Options {
        expect: Expect::Same,
        target_env: case.target_env,
        jobs: settings.jobs.max(1),
        seed: 0,
        time_limit: Some(budget),
    };
    let interesting =
        |c: &Candidate| judge_again(hunter, case, c, &d.oracles, &key).iter().any(|x| x.signature().key() == key);
    // The reducer meets modules nothing else has seen: guarded like the oracles.
    match guard("reducer", || reduce::reduce_case(original, &options, |_| {}, interesting)) {
        Ok(Ok(r)) => {
            let rematch = guard("judgement", || rematch(hunter, case, &r.candidate, &d.oracles, &key)).ok().flatten();
            let r = Reduction { reduced: r.candidate, info: r.info, rematch };
            note(r.summary(&slug));
            Some(r)
        }
        Ok(Err(e)) => {
            note(format!("{slug} kept as found: {e}"));
            None
        }
        Err(c) => {
            note(format!("{slug} kept as found: the reducer panicked at {}: {}", c.location, c.message));
            None
        }
    }
}

/// Writes the reduced case into `dir` as `STEM.*` next to the original
/// (already written as `STEM.orig.*` with manifest `original`); returns the
/// finding's case manifest: the original's, with the reduced case's files
/// and contents and a `reduction` record.
pub fn write_reduced(dir: &Path, stem: &str, original: Value, r: &Reduction, valid: bool) -> anyhow::Result<Value> {
    let written = reduce::write_candidate(dir, stem, &r.reduced, &Extras { spvasm: true, mlir: valid })?;
    let reduced = serde_json::to_value(written)?;
    let mut manifest = original;
    if let Some(out) = manifest.as_object_mut() {
        for key in CASE_FIELDS {
            match reduced.get(*key) {
                Some(v) => out.insert((*key).to_string(), v.clone()),
                None => out.remove(*key),
            };
        }
    }
    manifest["reduction"] = r.json(&format!("{stem}.orig"));
    if let Some(m) = &r.rematch {
        manifest["reduction"]["features"] = json!(m.features);
        manifest["reduction"]["documented"] = json!(m.documented);
    }
    Ok(manifest)
}

/// A finding stored by a hunt, read back: its directory, stem, manifest,
/// the case as a hunt outcome and the candidate to reduce.
pub struct StoredFinding {
    /// The finding's directory.
    pub dir: PathBuf,
    /// Its stem (the slug).
    pub stem: String,
    /// `STEM.json`.
    pub manifest: Value,
    /// The case as the hunt saw it (seed, expectation, target environment, profiles).
    pub case: CaseOutcome,
    /// The signature key the predicate looks for.
    pub key: String,
    /// The oracles of the signature.
    pub oracles: Vec<String>,
    /// The module and inputs of `STEM.*` (the reduced case if it was reduced before).
    pub candidate: Candidate,
}

/// The finding manifest in `dir`: `DIR/<dir name>.json` when it is there
/// (a hunt names the directory after the slug), otherwise the one `*.json`
/// with a `finding` object that is not an original (`.orig.json`), so `.`
/// and copies under other names work too.
pub fn finding_manifest(dir: &Path) -> anyhow::Result<PathBuf> {
    let named = std::fs::canonicalize(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| dir.join(format!("{}.json", n.to_string_lossy()))))
        .filter(|p| p.is_file());
    if let Some(p) = named {
        return Ok(p);
    }
    let entries = std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            name.ends_with(".json") && !name.ends_with(".orig.json")
        })
        .filter(|p| {
            std::fs::read_to_string(p)
                .ok()
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                .is_some_and(|v| v["finding"].is_object())
        })
        .collect();
    found.sort();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => anyhow::bail!("{}: no finding manifest (a STEM.json with a \"finding\" object)", dir.display()),
        many => anyhow::bail!(
            "{}: {} finding manifests; name one: {}",
            dir.display(),
            many.len(),
            many.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The directory a file named `path` is in: `.` for a bare file name
/// (whose `parent()` is the empty path, which cannot be listed).
pub fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Reads the finding in `path` (its directory or its `STEM.json`).
pub fn stored_case(path: &Path) -> anyhow::Result<StoredFinding> {
    let (dir, json_path) = if path.is_dir() {
        (path.to_path_buf(), finding_manifest(path)?)
    } else {
        (directory_of(path), path.to_path_buf())
    };
    let text = std::fs::read_to_string(&json_path).with_context(|| format!("cannot read {}", json_path.display()))?;
    let manifest: Value = serde_json::from_str(&text).with_context(|| format!("{}: not JSON", json_path.display()))?;
    let f = &manifest["finding"];
    let key = f["signature"].as_str().with_context(|| format!("{}: no finding signature", json_path.display()))?;
    let stem = json_path.file_stem().and_then(|s| s.to_str()).context("a finding manifest needs a file name")?;
    let spv = dir.join(manifest["spv"].as_str().unwrap_or(&format!("{stem}.spv")));
    let bytes = std::fs::read(&spv).with_context(|| format!("cannot read {}", spv.display()))?;
    let module = Module::decode_bytes(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", spv.display()))?;
    let candidate = reduce::candidate_from_manifest(module, &json_path)?;
    let field = |k: &str| f[k].as_str().map(str::to_string);
    let rule = match f["expected"]["rule"].as_str() {
        Some(r) => Some(RuleId::from_name(r).with_context(|| format!("{}: unknown rule {r}", json_path.display()))?),
        None => None,
    };
    let target_env = match f["target_env"].as_str() {
        Some(t) => {
            TargetEnv::parse(t).with_context(|| format!("{}: unknown target environment {t}", json_path.display()))?
        }
        None => TargetEnv::VULKAN_1_3,
    };
    let profiles =
        f["profiles"].as_array().map(|ps| ps.iter().filter_map(|p| p.as_str().and_then(Profile::from_name)).collect());
    let base = reduce::candidate_to_case(&candidate);
    let subject = match (rule, field("mutator")) {
        (Some(rule), Some(mutator)) => {
            let words = candidate.module.encode_words().map_err(|e| anyhow::anyhow!("{}: {e}", spv.display()))?;
            // The mutator's name is part of the expectation; stored ones are few.
            let mutator: &'static str = Box::leak(mutator.into_boxed_str());
            Subject::NearValid(NearValid {
                base,
                words,
                rule,
                mutator,
                note: field("note").unwrap_or_default(),
                target_env,
                profiles: profiles.clone(),
            })
        }
        _ => Subject::Valid(base),
    };
    let case = CaseOutcome {
        planned_rule: rule,
        subject,
        target_env,
        profiles,
        ..CaseOutcome::empty(f["hunt_index"].as_u64().unwrap_or(0), f["seed"].as_u64().unwrap_or(0))
    };
    let oracles = f["oracles"].as_array().map(|a| a.iter().filter_map(|o| o.as_str().map(str::to_string)).collect());
    Ok(StoredFinding {
        dir,
        stem: stem.to_string(),
        key: key.to_string(),
        oracles: oracles.unwrap_or_default(),
        manifest,
        case,
        candidate,
    })
}

/// The oracles that answered the stored case (those the registry knows)
/// and the hunt's referee, to judge it again with.
pub fn answered_oracles(stored: &StoredFinding) -> Vec<String> {
    let answered = stored.manifest["finding"]["answers"].as_object();
    let mut names: Vec<String> = spvgraph_oracle::registry::NAMES.iter().map(|n| n.to_string()).collect();
    // Channel instances (`emulation-layer@dev`) answered under their own names.
    let instances = answered.into_iter().flat_map(|a| a.keys()).chain(&stored.oracles);
    for n in instances.filter(|n| n.contains(spvgraph_oracle::registry::CHANNEL_SEPARATOR)) {
        if spvgraph_oracle::registry::is_instance_name(n) && !names.contains(n) {
            names.push(n.clone());
        }
    }
    // The referee's vote names the culprit of an output disagreement.
    let referee = stored.manifest["finding"]["referee"].as_str();
    names
        .into_iter()
        .filter(|n| {
            answered.is_some_and(|a| a.contains_key(n))
                || stored.oracles.iter().any(|o| o == n)
                || referee == Some(n.as_str())
        })
        .collect()
}

/// The oracles named `names` (see [`answered_oracles`]) set up as the hunt
/// that found a case ran them: every sampled oracle takes the case (it was
/// in their sample when found; a near-valid one only by a hunt with
/// `--strict-consumers`), and a valid case also runs in the default forms
/// and rescued, where a finding may come from.
pub fn rejudging_oracles(names: &[String]) -> anyhow::Result<OracleSet> {
    let mut set = OracleSet::build(Some(names), &OracleConfig::default(), &BTreeMap::new())?;
    for s in set.executors.iter_mut().chain(set.producers.iter_mut()) {
        s.sample = 1.0;
    }
    set.strict_consumers = true;
    set.forms = super::oracles::DEFAULT_FORMS;
    set.rescue = true;
    Ok(set)
}

/// Reduces a stored finding in place as the hunt judges it: with `oracles`
/// ([`rejudging_oracles`]), the default generator configuration, and the
/// case's own base seed (see [`reduce_in_place`]); `inject_panic` are the
/// seeds at which the in-tree validator is made to panic (tests only).
pub fn reduce_stored(
    stored: &StoredFinding,
    oracles: &OracleSet,
    inject_panic: &[u64],
    options: &reduce::Options,
    progress: impl Fn(&spvgraph_reducer::Progress) + Send + Sync,
) -> anyhow::Result<Reduction> {
    let config = spvgraph_generator::Config::default();
    let hunter = Hunter {
        config: &config,
        ratio: 0.0,
        rules: &[],
        oracles,
        base_seed: stored.case.seed.wrapping_sub(stored.case.index),
        inject_panic,
        observe: true,
        networks: None,
    };
    reduce_in_place(&hunter, stored, options, progress)
}

/// Reduces a stored finding in place with its recorded predicate (its
/// signature appears when judged again by `hunter`, whose oracles should be
/// [`answered_oracles`] with every sample at 1). Keeps the original as
/// `STEM.orig.*` (an earlier reduction's original stays). Returns the
/// reduction, or an error when the signature does not appear to begin with.
pub fn reduce_in_place(
    hunter: &Hunter<'_>,
    stored: &StoredFinding,
    options: &reduce::Options,
    progress: impl Fn(&spvgraph_reducer::Progress) + Send + Sync,
) -> anyhow::Result<Reduction> {
    // Panics are located through the hook, as in the hunt (the location is part of their signature).
    super::guard::install_panic_hook();
    let interesting = |c: &Candidate| {
        judge_again(hunter, &stored.case, c, &stored.oracles, &stored.key)
            .iter()
            .any(|x| x.signature().key() == stored.key)
    };
    let r = reduce::reduce_case(stored.candidate.clone(), options, progress, interesting)?;
    let rematch = rematch(hunter, &stored.case, &r.candidate, &stored.oracles, &stored.key);
    let r = Reduction { reduced: r.candidate, info: r.info, rematch };
    let (dir, stem) = (&stored.dir, stored.stem.as_str());
    let orig = format!("{stem}.orig");
    let mut original = stored.manifest.clone();
    if !dir.join(format!("{orig}.spv")).is_file() {
        keep_original(dir, stem)?;
        if let Some(o) = original.as_object_mut() {
            o.remove("finding");
            o.remove("reduction");
        }
        std::fs::write(dir.join(format!("{orig}.json")), format!("{}\n", serde_json::to_string_pretty(&original)?))
            .with_context(|| format!("cannot write {orig}.json in {}", dir.display()))?;
    } else if let Some(before) = stored.manifest["reduction"].as_object() {
        // The original is the one an earlier reduction kept.
        original["reduction"] = Value::Object(before.clone());
    }
    let valid = matches!(stored.case.subject, Subject::Valid(_));
    // The case's own files go first, so that none of the old reduced case's is left.
    remove_case_files(dir, stem)?;
    let mut manifest = write_reduced(dir, stem, stored.manifest.clone(), &r, valid)?;
    if let Some(m) = &r.rematch {
        manifest["finding"]["documented"] = json!(m.documented);
    }
    if let Some(bytes) = original.pointer("/reduction/bytes/original").cloned() {
        manifest["reduction"]["bytes"]["original"] = bytes;
    }
    let json_path = dir.join(format!("{stem}.json"));
    std::fs::write(&json_path, format!("{}\n", serde_json::to_string_pretty(&manifest)?))
        .with_context(|| format!("cannot write {}", json_path.display()))?;
    Ok(r)
}

/// The files of case `stem` in `dir` (not its `.orig`, manifest or note).
fn case_files(dir: &Path, stem: &str) -> anyhow::Result<Vec<(PathBuf, String)>> {
    let prefix = format!("{stem}.");
    let orig = format!("{stem}.orig.");
    let mut out = Vec::new();
    for item in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?.flatten() {
        let name = item.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(&prefix) else { continue };
        if name.starts_with(&orig) || rest == "json" || rest == "md" {
            continue;
        }
        out.push((item.path(), rest.to_string()));
    }
    out.sort();
    Ok(out)
}

/// Copies case `stem`'s files to `STEM.orig.*`.
fn keep_original(dir: &Path, stem: &str) -> anyhow::Result<()> {
    for (path, rest) in case_files(dir, stem)? {
        let to = dir.join(format!("{stem}.orig.{rest}"));
        std::fs::copy(&path, &to).with_context(|| format!("cannot copy {} to {}", path.display(), to.display()))?;
    }
    Ok(())
}

fn remove_case_files(dir: &Path, stem: &str) -> anyhow::Result<()> {
    for (path, _) in case_files(dir, stem)? {
        std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{capped, directory_of, finding_manifest};
    use std::path::Path;

    /// A bare file name is in `.` (its `parent()` is the empty path, which
    /// `read_dir` cannot list: `reduce --finding STEM.json` failed so).
    #[test]
    fn a_bare_file_name_is_in_the_current_directory() {
        assert_eq!(directory_of(Path::new("f.json")), Path::new("."));
        assert_eq!(directory_of(Path::new("d/f.json")), Path::new("d"));
        assert_eq!(directory_of(Path::new("/f.json")), Path::new("/"));
    }
    use std::time::{Duration, Instant};

    #[test]
    fn a_budget_never_runs_past_the_reductions_tail() {
        let now = Instant::now();
        let own = Duration::from_secs(180);
        assert_eq!(capped(own, None, now), own);
        assert_eq!(capped(own, Some(now + Duration::from_secs(20)), now), Duration::from_secs(20));
        assert_eq!(capped(own, Some(now + Duration::from_secs(999)), now), own);
        assert_eq!(capped(own, Some(now), now + Duration::from_secs(1)), Duration::ZERO);
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("spvgraph-finding-manifest-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch");
        d
    }

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).expect("write");
    }

    #[test]
    fn the_manifest_is_found_whatever_the_directory_is_called() {
        let d = scratch("renamed");
        write(&d, "slug.json", r#"{"finding": {"signature": "s"}}"#);
        write(&d, "slug.orig.json", r#"{"finding": {"signature": "s"}}"#);
        write(&d, "config.json", r#"{"max_nodes": 3}"#);
        assert_eq!(finding_manifest(&d).expect("found"), d.join("slug.json"));
        // A directory named after the slug is read directly.
        let named = d.join("slug");
        std::fs::create_dir_all(&named).expect("dir");
        write(&named, "slug.json", r#"{"finding": {"signature": "t"}}"#);
        assert_eq!(finding_manifest(&named).expect("found"), named.join("slug.json"));
    }

    #[test]
    fn no_manifest_or_several_are_errors_that_say_so() {
        let d = scratch("none");
        write(&d, "config.json", "{}");
        assert!(finding_manifest(&d).expect_err("none").to_string().contains("no finding manifest"));
        write(&d, "a.json", r#"{"finding": {}}"#);
        write(&d, "b.json", r#"{"finding": {}}"#);
        assert!(finding_manifest(&d).expect_err("two").to_string().contains("2 finding manifests"));
    }
}

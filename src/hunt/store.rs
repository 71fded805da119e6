//! The findings of a hunt: one directory per signature under `OUT/findings/`.
//!
//! A finding directory holds one case in the corpus format with the slug as
//! its stem: `SLUG.spv` (the module), `SLUG.spvasm`, `SLUG.mlir` (valid
//! cases), the input `.npy` files, `SLUG.json` (the case manifest plus a
//! `finding` object: signature, kind, severity, oracles, rule, operators,
//! every oracle's answer, the tool versions, the reproduce and check
//! commands, occurrences), `SLUG.md` (a note for people), and `config.json`
//! when the hunt ran with `--config`. Per signature the case with the
//! smallest index is kept. Each finding is written as soon as it is found
//! (into a temporary directory renamed into place), so a killed hunt keeps
//! them; occurrence counts are brought up to date at the end.

use super::case::{CaseOutcome, RoundTrip, Subject};
use super::guard::guard;
use super::reduce_finding::{self, Reduction};
use anyhow::Context;
use serde_json::{json, Value};
use spvgraph_generator::files::{self, Extras};
use spvgraph_oracle::features;
use spvgraph_oracle::judge::{Disagreement, Disposition, Documented, DocumentedPolicy, Kind, Severity, Signature};
use spvgraph_oracle::oracle::Oracle;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many example seeds a finding lists.
const EXAMPLES: usize = 10;

/// One signature seen (this run or, `known`, a previous run into the same directory).
struct Entry {
    slug: String,
    kind: Kind,
    severity: Severity,
    oracles: Vec<String>,
    /// Smallest case index written (`u64::MAX` for known findings).
    index: u64,
    /// Occurrences this run.
    count: u64,
    /// Occurrences recorded by earlier runs.
    prior: u64,
    /// The same, by the run that counted them (`finding.occurrences_by_run`).
    prior_by_run: BTreeMap<String, u64>,
    /// Found by an earlier run into this directory.
    known: bool,
    /// Written by this run before it was killed (loaded on `--resume`): new, not known.
    this_run: bool,
    /// An instance of a documented discrepancy (never new).
    documented: bool,
    /// Under `ignore_documented`: the documented finding this one is an
    /// instance of, and when this run first met it.
    recalls: Option<(String, Duration)>,
    /// The smallest seeds it occurred at (this run).
    examples: BTreeSet<u64>,
    /// The manifest as last written.
    manifest: Value,
}

impl Entry {
    fn status(&self) -> &'static str {
        if self.documented {
            "documented"
        } else if self.known {
            "known"
        } else {
            "new"
        }
    }
}

/// What [`Store::record`] concluded.
pub enum Recorded {
    /// A signature not seen before (this run or earlier ones), written as
    /// found: its directory, and whether it is a documented discrepancy.
    /// Its case is the one to reduce ([`Store::reduced`]).
    New(PathBuf, bool),
    /// A smaller case of a signature this run found, written in place of the
    /// larger one: the case to reduce now.
    Smaller,
    /// Another occurrence.
    Again,
    /// Outside the tool's contract: a note, not a finding.
    Note,
}

/// What the findings record about the hunt that made them.
#[derive(Clone, Debug, Default)]
pub struct StoreContext {
    /// This run's name, recorded as `finding.run` (see [`super::progress`]).
    pub run: Option<String>,
    /// The `--config` file's contents (written as `config.json` per finding).
    pub config_json: Option<String>,
    /// The validators that ran (for the check command).
    pub validators: Vec<String>,
    /// The referee, if any (for the check command of output findings).
    pub referee: Option<String>,
    /// Each oracle's version.
    pub versions: BTreeMap<String, String>,
    /// Whether documented discrepancies are known;
    /// [`DocumentedPolicy::Ignored`] is the self-check of recall (`hunt
    /// --ignore-documented`): such findings are new, and record the
    /// documented finding they are an instance of as `recalls`.
    pub documented: DocumentedPolicy,
    /// The arguments that make a `--profile networks` hunt's cases again
    /// (`--profile networks --corpus DIR --networks GLOB`), for the
    /// reproduce command of a network case; empty otherwise.
    pub network_args: Vec<String>,
}

/// One documented discrepancy in the recall self-check ([`Store::recall`]).
#[derive(Clone, Debug)]
pub struct Recall {
    /// The oracle it documents.
    pub oracle: String,
    /// Its kind.
    pub kind: String,
    /// Its minimal module.
    pub finding: String,
    /// The signatures of this run that are instances of it.
    pub found: Vec<String>,
    /// When this run first met one.
    pub first_after: Option<Duration>,
}

/// Per-kind totals for the summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct KindTotals {
    /// Occurrences this run.
    pub occurrences: u64,
    /// Distinct signatures seen this run.
    pub signatures: u64,
    /// Of those, neither known from an earlier run nor documented.
    pub new: u64,
    /// Of those, instances of documented discrepancies.
    pub documented: u64,
}

/// One signature seen this run, for reports.
#[derive(Clone, Debug)]
pub struct Seen {
    /// The signature key.
    pub key: String,
    /// The finding's directory name.
    pub slug: String,
    /// Its kind.
    pub kind: Kind,
    /// Its severity.
    pub severity: Severity,
    /// The oracles involved.
    pub oracles: Vec<String>,
    /// Occurrences this run.
    pub count: u64,
    /// `new`, `known` or `documented`.
    pub status: &'static str,
}

/// The entry of a finding an earlier run wrote (`None` if `text` is not a
/// finding manifest); `run`: this run's name, for findings it wrote before
/// it was killed and resumed.
fn known_entry(slug: &str, text: &str, run: Option<&str>) -> Option<(String, Entry)> {
    let manifest = serde_json::from_str::<Value>(text).ok()?;
    let finding = &manifest["finding"];
    let key = finding["signature"].as_str()?.to_string();
    let kind = finding["kind"].as_str().and_then(Kind::from_name)?;
    let severity = serde_json::from_value(finding["severity"].clone()).unwrap_or(kind.severity());
    let oracles = serde_json::from_value(finding["oracles"].clone()).unwrap_or_default();
    let this_run = run.is_some() && finding["run"].as_str() == run;
    let entry = Entry {
        slug: slug.to_string(),
        kind,
        severity,
        oracles,
        // A finding of the resumed run stays replaceable by a smaller case, as in an unbroken run.
        index: if this_run { finding["hunt_index"].as_u64().unwrap_or(u64::MAX) } else { u64::MAX },
        count: 0,
        prior: finding["occurrences"].as_u64().unwrap_or(0),
        prior_by_run: super::findings::occurrences_by_run(finding),
        known: !this_run,
        this_run,
        documented: finding["documented"].is_object(),
        // A resumed run's recall restarts its clock: the time is not on disk.
        recalls: finding["recalls"]["finding"].as_str().map(|f| (f.to_string(), Duration::ZERO)),
        examples: if this_run {
            let seeds = finding["example_seeds"].as_array().into_iter().flatten().filter_map(Value::as_u64);
            seeds.chain(finding["seed"].as_u64()).collect()
        } else {
            BTreeSet::new()
        },
        manifest,
    };
    Some((key, entry))
}

/// A disagreement outside the tool's contract ([`Severity::Note`]): counted
/// and shown, never written as a finding.
#[derive(Clone, Debug)]
pub struct NoteSeen {
    /// The signature key.
    pub key: String,
    /// Its kind.
    pub kind: Kind,
    /// The oracles involved.
    pub oracles: Vec<String>,
    /// Occurrences this run.
    pub count: u64,
    /// The smallest seed it occurred at.
    pub seed: u64,
    /// What happened at that seed.
    pub detail: String,
}

/// The findings of one hunt.
pub struct Store {
    dir: PathBuf,
    context: StoreContext,
    entries: Mutex<BTreeMap<String, Entry>>,
    notes: Mutex<BTreeMap<String, NoteSeen>>,
    errors: Mutex<Vec<String>>,
    /// The hunt's oracles, for each finding's `UPSTREAM.md` (none: not written).
    oracles: Vec<Arc<dyn Oracle>>,
    /// When the store was opened (the run's start, for `recalls`).
    started: Instant,
}

impl Store {
    /// Opens `dir` (created), loading the signatures of earlier runs' findings.
    pub fn open(dir: &Path, context: StoreContext) -> anyhow::Result<Store> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let mut entries = BTreeMap::new();
        let listing = std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
        for item in listing.flatten() {
            let name = item.file_name().to_string_lossy().into_owned();
            if let Some(slug) = name.strip_prefix(".old-") {
                // A run killed while replacing a finding: keep the old one.
                let dest = dir.join(slug);
                if !dest.exists() && std::fs::rename(item.path(), &dest).is_ok() {
                    let text = std::fs::read_to_string(dest.join(format!("{slug}.json"))).unwrap_or_default();
                    if let Some((key, entry)) = known_entry(slug, &text, context.run.as_deref()) {
                        entries.insert(key, entry);
                    }
                    continue;
                }
            }
            if name.starts_with('.') {
                // A temporary directory of a killed run.
                let _ = std::fs::remove_dir_all(item.path());
                continue;
            }
            let Ok(text) = std::fs::read_to_string(item.path().join(format!("{name}.json"))) else { continue };
            if let Some((key, entry)) = known_entry(&name, &text, context.run.as_deref()) {
                entries.insert(key, entry);
            }
        }
        Ok(Store {
            dir: dir.to_path_buf(),
            context,
            entries: Mutex::new(entries),
            notes: Mutex::new(BTreeMap::new()),
            errors: Mutex::new(Vec::new()),
            oracles: Vec::new(),
            started: Instant::now(),
        })
    }

    /// With the hunt's oracles: each new finding then gets its `UPSTREAM.md`
    /// ([`super::upstream`]), whose reproducer the culprit oracle writes.
    pub fn with_oracles(mut self, oracles: Vec<Arc<dyn Oracle>>) -> Store {
        self.oracles = oracles;
        self
    }

    /// Whether documented discrepancies are treated as unknown (the recall self-check).
    pub fn ignores_documented(&self) -> bool {
        self.context.documented == DocumentedPolicy::Ignored
    }

    /// Whether documented discrepancies are known in this run.
    pub fn documented_policy(&self) -> DocumentedPolicy {
        self.context.documented
    }

    /// The directory findings go to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Signatures known before this run.
    pub fn known(&self) -> usize {
        self.entries.lock().map(|e| e.values().filter(|x| x.known).count()).unwrap_or(0)
    }

    /// Records one disagreement of `case`; writes the finding, as found,
    /// when its signature is new or when this case is smaller than the one
    /// on disk (so a killed hunt keeps it). Reducing it is the caller's
    /// choice, in the background: [`Store::reduced`] then writes the reduced
    /// case next to the original.
    pub fn record(&self, case: &CaseOutcome, d: &Disagreement) -> Recorded {
        let sig = d.signature();
        let key = sig.key();
        let documented = match d.disposition(self.context.documented) {
            Disposition::Note | Disposition::Unjudged => {
                self.note(key, case.seed, d);
                return Recorded::Note;
            }
            Disposition::Documented(_) => true,
            Disposition::Finding => false,
        };
        // Claim the signature (or, for a smaller case, the finding) under the lock.
        let (slug, new) = {
            let Ok(mut entries) = self.entries.lock() else { return Recorded::Again };
            match entries.get_mut(&key) {
                Some(e) => {
                    e.count += 1;
                    e.examples.insert(case.seed);
                    while e.examples.len() > EXAMPLES {
                        e.examples.pop_last();
                    }
                    if e.known || case.index >= e.index {
                        return Recorded::Again;
                    }
                    e.index = case.index;
                    (e.slug.clone(), false)
                }
                None => {
                    let slug = sig.slug();
                    entries.insert(
                        key.clone(),
                        Entry {
                            slug: slug.clone(),
                            kind: d.kind,
                            severity: d.severity,
                            oracles: d.oracles.clone(),
                            index: case.index,
                            count: 1,
                            prior: 0,
                            prior_by_run: BTreeMap::new(),
                            known: false,
                            this_run: false,
                            documented,
                            recalls: None,
                            examples: BTreeSet::from([case.seed]),
                            manifest: Value::Null,
                        },
                    );
                    (slug, true)
                }
            }
        };
        self.write_claimed(&key, &slug, case, d, None);
        if new {
            Recorded::New(self.dir.join(slug), documented)
        } else {
            Recorded::Smaller
        }
    }

    /// Writes `reduction`, the reduced case of disagreement `d` of `case`,
    /// next to the case as found, unless a smaller case of the signature
    /// took the finding meanwhile (its own reduction writes then). The
    /// reduced case is matched again: it decides whether the finding is
    /// documented.
    pub fn reduced(&self, case: &CaseOutcome, d: &Disagreement, reduction: &Reduction) {
        let sig = d.signature();
        self.write_claimed(&sig.key(), &sig.slug(), case, d, Some(reduction));
    }

    /// Writes the finding of signature `key` from `case` (reduced or not),
    /// when `case` is still the one that holds it.
    fn write_claimed(&self, key: &str, slug: &str, case: &CaseOutcome, d: &Disagreement, r: Option<&Reduction>) {
        let documented = match r.and_then(|r| r.rematch.as_ref()) {
            Some(m) => m.documented.clone(),
            None => d.documented.clone(),
        };
        // The reduced case, matched again, decides: judged as `d` with its documentation.
        let judged = Disagreement { documented: documented.clone(), ..d.clone() };
        let sig = d.signature();
        let Ok(mut entries) = self.entries.lock() else { return };
        if let Some(e) = entries.get_mut(key).filter(|e| e.index == case.index) {
            e.documented = judged.disposition(self.context.documented).documented().is_some();
            if self.ignores_documented() {
                let first = e.recalls.as_ref().map_or_else(|| self.started.elapsed(), |r| r.1);
                e.recalls = documented.as_ref().map(|x| (x.finding.clone(), first));
            }
            match self.write(slug, &sig, case, d, r, documented.as_ref()) {
                Ok(m) => e.manifest = m,
                Err(err) => self.error(format!("{slug}: {err:#}")),
            }
        }
    }

    fn note(&self, key: String, seed: u64, d: &Disagreement) {
        let Ok(mut notes) = self.notes.lock() else { return };
        let n = notes.entry(key.clone()).or_insert_with(|| NoteSeen {
            key,
            kind: d.kind,
            oracles: d.oracles.clone(),
            count: 0,
            seed,
            detail: d.detail.clone(),
        });
        n.count += 1;
        if seed < n.seed {
            n.seed = seed;
            n.detail.clone_from(&d.detail);
        }
    }

    /// The notes of this run (disagreements outside the tools' contracts), by signature.
    pub fn notes(&self) -> Vec<NoteSeen> {
        self.notes.lock().map(|n| n.values().cloned().collect()).unwrap_or_default()
    }

    fn error(&self, e: String) {
        if let Ok(mut errors) = self.errors.lock() {
            errors.push(e);
        }
    }

    /// The I/O errors so far.
    pub fn errors(&self) -> Vec<String> {
        self.errors.lock().map(|e| e.clone()).unwrap_or_default()
    }

    /// Under `ignore_documented`, the recall self-check: every documented
    /// discrepancy of the hunt's oracles, each with the findings of this run
    /// that are instances of it and when the first was met (none: not found
    /// again).
    pub fn recall(&self) -> Vec<Recall> {
        let mut out: Vec<Recall> = Vec::new();
        for o in &self.oracles {
            for k in o.known_discrepancies() {
                if out.iter().any(|r| r.finding == k.finding) {
                    continue;
                }
                out.push(Recall {
                    oracle: o.name().to_string(),
                    kind: k.kind.to_string(),
                    finding: k.finding.to_string(),
                    found: Vec::new(),
                    first_after: None,
                });
            }
        }
        if let Ok(entries) = self.entries.lock() {
            for (key, e) in entries.iter() {
                let Some((finding, after)) = &e.recalls else { continue };
                if let Some(r) = out.iter_mut().find(|r| &r.finding == finding) {
                    r.found.push(key.clone());
                    r.first_after = Some(r.first_after.map_or(*after, |t: Duration| t.min(*after)));
                }
            }
        }
        out
    }

    /// Per-kind totals of this run.
    pub fn totals(&self) -> BTreeMap<Kind, KindTotals> {
        let mut out = BTreeMap::new();
        if let Ok(entries) = self.entries.lock() {
            for e in entries.values().filter(|e| e.count > 0 || e.this_run) {
                let t: &mut KindTotals = out.entry(e.kind).or_default();
                // A resumed run's own findings count what the killed part saw too.
                t.occurrences += e.count + if e.this_run { e.prior } else { 0 };
                t.signatures += 1;
                t.new += u64::from(!e.known && !e.documented);
                t.documented += u64::from(e.documented);
            }
        }
        out
    }

    /// The signatures seen this run.
    pub fn seen(&self) -> Vec<Seen> {
        self.entries
            .lock()
            .map(|entries| {
                entries
                    .iter()
                    .filter(|(_, e)| e.count > 0 || e.this_run)
                    .map(|(k, e)| Seen {
                        key: k.clone(),
                        slug: e.slug.clone(),
                        kind: e.kind,
                        severity: e.severity,
                        oracles: e.oracles.clone(),
                        count: e.count + if e.this_run { e.prior } else { 0 },
                        status: e.status(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Brings every finding seen this run up to date: occurrences (earlier
    /// runs' plus this run's, also by run: `occurrences_by_run`, which
    /// `findings merge` needs to count each run once) and example seeds.
    pub fn finish(&self) {
        let Ok(mut entries) = self.entries.lock() else { return };
        let run = self.context.run.clone().unwrap_or_default();
        for e in entries.values_mut().filter(|e| e.count > 0 && e.manifest.is_object()) {
            let mut by_run = e.prior_by_run.clone();
            // A resumed run (or a finished one continued) adds to its own count.
            *by_run.entry(run.clone()).or_default() += e.count;
            let finding = &mut e.manifest["finding"];
            finding["occurrences"] = json!(by_run.values().sum::<u64>());
            finding["occurrences_by_run"] = json!(by_run);
            finding["occurrences_this_run"] = json!(e.count);
            if !e.known {
                finding["example_seeds"] = json!(e.examples.iter().collect::<Vec<_>>());
            }
            let path = self.dir.join(&e.slug).join(format!("{}.json", e.slug));
            let written = serde_json::to_string_pretty(&e.manifest)
                .map_err(anyhow::Error::from)
                .and_then(|t| std::fs::write(&path, format!("{t}\n")).map_err(anyhow::Error::from));
            if let Err(err) = written {
                let msg = format!("cannot update {}: {err}", path.display());
                if let Ok(mut errors) = self.errors.lock() {
                    errors.push(msg);
                }
            }
        }
    }

    /// Writes the finding directory `dir/slug` (through a temporary
    /// directory renamed into place); returns its manifest. With a
    /// reduction, the case as found goes to `slug.orig.*` and the reduced
    /// one to `slug.*`.
    fn write(
        &self,
        slug: &str,
        sig: &Signature,
        case: &CaseOutcome,
        d: &Disagreement,
        reduction: Option<&Reduction>,
        documented: Option<&Documented>,
    ) -> anyhow::Result<Value> {
        let tmp = self.dir.join(format!(".tmp-{slug}-{}", case.index));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        let written = match reduction {
            None => case_files(&tmp, slug, case),
            Some(r) => case_files(&tmp, &format!("{slug}.orig"), case).and_then(|original| {
                let valid = matches!(case.subject, Subject::Valid(_));
                guard("finding writer", || reduce_finding::write_reduced(&tmp, slug, original, r, valid))
                    .unwrap_or_else(|c| Err(anyhow::anyhow!("the case writer panicked: {}", c.message)))
            }),
        };

        let (mut manifest, files_error) = match written {
            Ok(m) => (m, None),
            Err(e) => {
                // Still keep the module's words when there are some.
                if let Some(w) = &case.words {
                    let bytes = spvgraph_ir::binary::words_to_bytes(w, spvgraph_ir::binary::Endian::Little);
                    let p = tmp.join(format!("{slug}.spv"));
                    std::fs::write(&p, bytes).with_context(|| format!("cannot write {}", p.display()))?;
                }
                (json!({ "seed": case.seed, "spv": case.words.as_ref().map(|_| format!("{slug}.spv")) }), Some(e))
            }
        };
        if let Some(cfg) = &self.context.config_json {
            let p = tmp.join("config.json");
            std::fs::write(&p, cfg).with_context(|| format!("cannot write {}", p.display()))?;
        }
        manifest["finding"] = self.finding_json(slug, sig, case, d, files_error.map(|e| format!("{e:#}")));
        if self.ignores_documented() {
            // Found as if unknown: the row it would have matched, for the recall list.
            manifest["finding"]["documented"] = Value::Null;
            manifest["finding"]["recalls"] = json!(documented);
        } else {
            manifest["finding"]["documented"] = json!(documented);
        }
        manifest["finding"]["documented_as_found"] = json!(d.documented);
        manifest["finding"]["features_as_found"] =
            json!(case.words.as_deref().map(|w| features::detect_words(w, None)));
        let json_path = tmp.join(format!("{slug}.json"));
        std::fs::write(&json_path, format!("{}\n", serde_json::to_string_pretty(&manifest)?))
            .with_context(|| format!("cannot write {}", json_path.display()))?;
        let md_path = tmp.join(format!("{slug}.md"));
        std::fs::write(&md_path, super::note::note(slug, &manifest))
            .with_context(|| format!("cannot write {}", md_path.display()))?;
        // Into place: the old directory (a larger case) goes away only after
        // the new one is complete.
        let dest = self.dir.join(slug);
        let old = self.dir.join(format!(".old-{slug}"));
        let had_old = dest.exists();
        if had_old {
            let _ = std::fs::remove_dir_all(&old);
            std::fs::rename(&dest, &old).with_context(|| format!("cannot move {}", dest.display()))?;
        }
        std::fs::rename(&tmp, &dest).with_context(|| format!("cannot move {} into place", tmp.display()))?;
        if had_old {
            let _ = std::fs::remove_dir_all(&old);
        }
        if !self.oracles.is_empty() {
            let lookup = |name: &str| self.oracles.iter().find(|o| o.name() == name).cloned();
            // The report is written after the finding is in place: it reads the finding back.
            let written = guard("upstream report", || super::upstream::write(&dest, &lookup, &[]))
                .unwrap_or_else(|c| Err(anyhow::anyhow!("the report writer panicked: {}", c.message)));
            if let Err(e) = written {
                self.error(format!("{slug}: {}: {e:#}", super::upstream::FILE));
            }
        }
        Ok(manifest)
    }

    fn finding_json(
        &self,
        slug: &str,
        sig: &Signature,
        case: &CaseOutcome,
        d: &Disagreement,
        files_error: Option<String>,
    ) -> Value {
        let near = match &case.subject {
            Subject::NearValid(nv) => Some(nv),
            _ => None,
        };
        let rule = case.planned_rule;
        let (argv, output) = match &case.network {
            Some(_) => super::reproduce_command::reproduce_network(case.seed, &self.context.network_args),
            None => super::reproduce_command::reproduce(
                case.seed,
                rule.map(|r| r.name()),
                self.context.config_json.is_some(),
            ),
        };
        let profiles = case.profiles.as_ref().map(|ps| ps.iter().map(|p| p.name()).collect::<Vec<_>>());
        let check = super::reproduce_command::check_command(slug, case, d, &self.context);
        let roundtrip = match &case.roundtrip {
            RoundTrip::NotRun => json!({ "ran": false }),
            RoundTrip::Identical => json!({ "ran": true, "identical": true }),
            RoundTrip::Undecodable(e) => json!({ "ran": true, "identical": false, "decodes": false, "detail": e }),
            RoundTrip::Differs(e) => json!({ "ran": true, "identical": false, "decodes": true, "detail": e }),
        };
        let expected = match rule {
            None => json!({ "valid": true }),
            Some(r) => json!({
                "valid": false,
                "rule": r.name(),
                "spirv_val_checks": r.info().spirv_val_checks,
                "per_operator": r.info().per_operator,
            }),
        };
        let answers: serde_json::Map<String, Value> =
            case.answers.iter().map(|(n, a)| (n.clone(), serde_json::to_value(a).unwrap_or(Value::Null))).collect();
        let versions: BTreeMap<&String, &String> =
            self.context.versions.iter().filter(|(n, _)| d.oracles.contains(n) || case.answer(n).is_some()).collect();
        json!({
            "signature": sig.key(),
            "slug": sig.slug(),
            "kind": d.kind,
            "severity": d.severity,
            "meaning": d.kind.meaning(),
            "oracles": d.oracles,
            "rule": d.rule,
            "operators": d.operators,
            "operator": sig.operator,
            "discriminator": d.discriminator,
            "message": sig.message,
            "detail": d.detail,
            "documented": d.documented,
            "case": if rule.is_some() { "near-valid" } else { "valid" },
            "seed": case.seed,
            "hunt_index": case.index,
            // A mutant of the case at `seed` (the finding's .spv is the mutant;
            // `reproduce` regenerates the case it was mutated from).
            "neighbour_of": case.neighbour.map(|n| n.to_json()),
            // A neighbour of a real network (`--profile networks`): which
            // network and what changed (the finding's .spv and data are the
            // neighbour; `reproduce` hunts its seed again over the networks).
            "network_of": case.network.as_ref().map(|n| n.to_json()),
            "near_valid_unavailable": case.unavailable,
            "mutator": near.map(|nv| nv.mutator),
            "note": near.map(|nv| nv.note.as_str()),
            "target_env": case.target_env,
            "profiles": profiles,
            "entry": case.entry,
            "expected": expected,
            "answers": answers,
            "roundtrip": roundtrip,
            "versions": versions,
            "reproduce": argv.join(" "),
            "reproduce_argv": argv,
            "reproduce_output": output,
            "check": check.join(" "),
            "check_argv": check,
            // The hunt's referee: judging the case again needs its vote too.
            "referee": self.context.referee,
            "files_error": files_error,
            "occurrences": 1,
            "spvgraph_version": env!("CARGO_PKG_VERSION"),
            "run": self.context.run,
        })
    }
}

/// Writes `case` into `dir` as `stem.*`; returns its case manifest. The
/// writers may meet modules nothing else has seen, so they run guarded too.
fn case_files(dir: &Path, stem: &str, case: &CaseOutcome) -> anyhow::Result<Value> {
    match &case.subject {
        Subject::Valid(c) => guard("finding writer", || {
            files::write_case(dir, stem, c, &Extras { spvasm: true, mlir: true })
                .map_err(anyhow::Error::from)
                .and_then(|m| Ok(serde_json::to_value(m)?))
        })
        .unwrap_or_else(|c| Err(anyhow::anyhow!("the case writer panicked: {}", c.message))),
        Subject::NearValid(nv) => guard("finding writer", || {
            // The hunt never draws pipeline mutators: no entry points to name.
            files::write_near_valid(dir, stem, nv, &Extras { spvasm: true, mlir: false }, &[])
                .map_err(anyhow::Error::from)
        })
        .unwrap_or_else(|c| Err(anyhow::anyhow!("the case writer panicked: {}", c.message))),
        Subject::Nothing => Err(anyhow::anyhow!("no module: generation panicked")),
    }
}

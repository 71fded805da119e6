//! Findings of `spvgraph hunt`: signatures that dedup disagreements, and the
//! store that writes one finding per signature under `OUT/findings/<slug>/`.
//!
//! A finding directory holds one case in the corpus format with the slug as
//! its stem: `SLUG.spv` (the module), `SLUG.spvasm`, `SLUG.json` (the case
//! manifest plus a `finding` object: signature, kind, rule, operator, seed,
//! both verdicts, reproduce command, occurrences), `SLUG.md` (a note with
//! the reproduction command), the input `.npy` files, and `config.json` when
//! the hunt ran with `--config`. Per signature the case with the smallest
//! index is kept. Each finding is written as soon as it is found (into a
//! temporary directory renamed into place), so a killed hunt keeps them;
//! occurrence counts are brought up to date at the end.

use super::generate::write_near_valid;
use super::hunt_check::{guard, CaseOutcome, Disagreement, Kind, RoundTrip, SpirvValOutcome, Subject};
use anyhow::Context;
use serde_json::{json, Value};
use spvgraph_generator::files::{self, Extras};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// How many example seeds a finding lists.
const EXAMPLES: usize = 10;

/// The dedup identity of a disagreement: kind, rule, operator, a further
/// discriminator and a normalized message (digits and ids stripped).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Signature {
    /// The kind.
    pub kind: Kind,
    /// The rule.
    pub rule: Option<String>,
    /// The operator, for per-operator rules.
    pub op: Option<String>,
    /// Unexpected rules, panicking component, round-trip mode.
    pub extra: Option<String>,
    /// The normalized message.
    pub message: Option<String>,
}

impl Signature {
    /// The signature of a disagreement.
    pub(super) fn of(d: &Disagreement) -> Signature {
        Signature {
            kind: d.kind,
            rule: d.rule.clone(),
            op: d.op.clone(),
            extra: d.extra.clone(),
            message: d.message.as_deref().map(normalize),
        }
    }

    /// The signature as one line: `kind | rule | op | extra | message` (`-` for none).
    pub(super) fn key(&self) -> String {
        let part = |s: &Option<String>| s.clone().unwrap_or_else(|| "-".into());
        format!(
            "{} | {} | {} | {} | {}",
            self.kind.name(),
            part(&self.rule),
            part(&self.op),
            part(&self.extra),
            part(&self.message)
        )
    }

    /// A file-name form: kind, rule and operator, then a hash of the whole key.
    pub(super) fn slug(&self) -> String {
        let mut s = self.kind.name().to_string();
        // A panic has no rule: its component names it instead.
        let component = match (self.kind, &self.extra) {
            (Kind::Panic, Some(e)) => e.split(" at ").next().map(str::to_string),
            _ => None,
        };
        for p in [&self.rule, &self.op, &component].into_iter().flatten() {
            s.push_str("--");
            s.push_str(p);
        }
        let mut slug: String = s
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c.to_ascii_lowercase() } else { '-' })
            .collect();
        slug.truncate(90);
        format!("{slug}--{:08x}", fnv1a(self.key().as_bytes()) as u32)
    }
}

/// FNV-1a, 64 bits: a hash that stays the same across builds and platforms.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A message with the parts that change from case to case stripped: ids
/// (`%name`, `%12`) become `%`, digit runs become `N`, whitespace runs one
/// space; at most 160 characters.
pub(super) fn normalize(message: &str) -> String {
    let mut out = String::new();
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            while chars.peek().is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.') {
                chars.next();
            }
            out.push('%');
        } else if c.is_ascii_digit() {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            out.push('N');
        } else if c.is_whitespace() {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    let out = out.trim();
    match out.char_indices().nth(160) {
        Some((i, _)) => out[..i].to_string(),
        None => out.to_string(),
    }
}

/// One signature seen (this run or, `known`, a previous run into the same directory).
struct Entry {
    slug: String,
    kind: Kind,
    /// Smallest case index written (`u64::MAX` for known findings).
    index: u64,
    /// Occurrences this run.
    count: u64,
    /// Occurrences recorded by earlier runs.
    prior: u64,
    /// Found by an earlier run into this directory.
    known: bool,
    /// An instance of a documented spirv-val discrepancy (never new).
    documented: bool,
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

/// What `record` concluded.
pub(super) enum Recorded {
    /// A signature not seen before (this run or earlier ones): its
    /// directory, and whether it is a documented discrepancy.
    New(PathBuf, bool),
    /// Another occurrence.
    Again,
}

/// How to reproduce a case and what the hunt ran with.
pub(super) struct StoreContext {
    /// The `--config` file's contents (written as `config.json` per finding).
    pub config_json: Option<String>,
    /// Whether spirv-val ran.
    pub spirv_val: bool,
}

/// Per-kind totals for the summary.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct KindTotals {
    /// Occurrences this run.
    pub occurrences: u64,
    /// Distinct signatures seen this run.
    pub signatures: u64,
    /// Of those, neither known from an earlier run nor documented.
    pub new: u64,
    /// Of those, instances of documented spirv-val discrepancies.
    pub documented: u64,
}

/// The entry of a finding an earlier run wrote (`None` if `text` is not a finding manifest).
fn known_entry(slug: &str, text: &str) -> Option<(String, Entry)> {
    let manifest = serde_json::from_str::<Value>(text).ok()?;
    let finding = &manifest["finding"];
    let key = finding["signature"].as_str()?.to_string();
    let kind = finding["kind"].as_str().and_then(|k| Kind::ALL.into_iter().find(|x| x.name() == k))?;
    let entry = Entry {
        slug: slug.to_string(),
        kind,
        index: u64::MAX,
        count: 0,
        prior: finding["occurrences"].as_u64().unwrap_or(0),
        known: true,
        documented: finding["documented"].is_object(),
        examples: BTreeSet::new(),
        manifest,
    };
    Some((key, entry))
}

/// The findings of one hunt.
pub(super) struct Store {
    dir: PathBuf,
    context: StoreContext,
    entries: Mutex<BTreeMap<String, Entry>>,
    errors: Mutex<Vec<String>>,
}

impl Store {
    /// Opens `dir` (created), loading the signatures of earlier runs' findings.
    pub(super) fn open(dir: &Path, context: StoreContext) -> anyhow::Result<Store> {
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
                    if let Some((key, entry)) = known_entry(slug, &text) {
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
            if let Some((key, entry)) = known_entry(&name, &text) {
                entries.insert(key, entry);
            }
        }
        Ok(Store { dir: dir.to_path_buf(), context, entries: Mutex::new(entries), errors: Mutex::new(Vec::new()) })
    }

    /// The directory findings go to.
    pub(super) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Signatures known before this run.
    pub(super) fn known(&self) -> usize {
        self.entries.lock().map(|e| e.values().filter(|x| x.known).count()).unwrap_or(0)
    }

    /// Records one disagreement of `case`; writes the finding when its
    /// signature is new, or when this case is smaller than the one on disk.
    pub(super) fn record(&self, case: &CaseOutcome, d: &Disagreement) -> Recorded {
        let sig = Signature::of(d);
        let key = sig.key();
        let Ok(mut entries) = self.entries.lock() else { return Recorded::Again };
        if let Some(e) = entries.get_mut(&key) {
            e.count += 1;
            e.examples.insert(case.seed);
            while e.examples.len() > EXAMPLES {
                e.examples.pop_last();
            }
            if !e.known && case.index < e.index {
                let slug = e.slug.clone();
                match self.write(&slug, &sig, case, d) {
                    Ok(m) => {
                        e.manifest = m;
                        e.index = case.index;
                    }
                    Err(err) => self.error(format!("{slug}: {err:#}")),
                }
            }
            return Recorded::Again;
        }
        let slug = sig.slug();
        let manifest = match self.write(&slug, &sig, case, d) {
            Ok(m) => m,
            Err(err) => {
                self.error(format!("{slug}: {err:#}"));
                Value::Null
            }
        };
        entries.insert(
            key,
            Entry {
                slug: slug.clone(),
                kind: d.kind,
                index: case.index,
                count: 1,
                prior: 0,
                known: false,
                documented: d.documented.is_some(),
                examples: BTreeSet::from([case.seed]),
                manifest,
            },
        );
        Recorded::New(self.dir.join(slug), d.documented.is_some())
    }

    fn error(&self, e: String) {
        if let Ok(mut errors) = self.errors.lock() {
            errors.push(e);
        }
    }

    /// The I/O errors so far.
    pub(super) fn errors(&self) -> Vec<String> {
        self.errors.lock().map(|e| e.clone()).unwrap_or_default()
    }

    /// Per-kind totals of this run.
    pub(super) fn totals(&self) -> BTreeMap<Kind, KindTotals> {
        let mut out = BTreeMap::new();
        if let Ok(entries) = self.entries.lock() {
            for e in entries.values().filter(|e| e.count > 0) {
                let t: &mut KindTotals = out.entry(e.kind).or_default();
                t.occurrences += e.count;
                t.signatures += 1;
                t.new += u64::from(!e.known && !e.documented);
                t.documented += u64::from(e.documented);
            }
        }
        out
    }

    /// The signatures seen this run: (key, slug, kind, occurrences this run, status).
    pub(super) fn seen(&self) -> Vec<(String, String, Kind, u64, &'static str)> {
        self.entries
            .lock()
            .map(|entries| {
                entries
                    .iter()
                    .filter(|(_, e)| e.count > 0)
                    .map(|(k, e)| (k.clone(), e.slug.clone(), e.kind, e.count, e.status()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Brings every finding seen this run up to date: occurrences (earlier
    /// runs' plus this run's) and example seeds.
    pub(super) fn finish(&self) {
        let Ok(mut entries) = self.entries.lock() else { return };
        for e in entries.values_mut().filter(|e| e.count > 0 && e.manifest.is_object()) {
            let finding = &mut e.manifest["finding"];
            finding["occurrences"] = json!(e.prior + e.count);
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
    /// directory renamed into place); returns its manifest.
    fn write(&self, slug: &str, sig: &Signature, case: &CaseOutcome, d: &Disagreement) -> anyhow::Result<Value> {
        let tmp = self.dir.join(format!(".tmp-{slug}-{}", case.index));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        // The case files; the writers may meet modules nothing else has seen,
        // so they run guarded too.
        let written: anyhow::Result<Value> = match &case.subject {
            Subject::Valid(c) => guard("finding writer", || {
                files::write_case(&tmp, slug, c, &Extras { spvasm: true, mlir: true })
                    .map_err(anyhow::Error::from)
                    .and_then(|m| Ok(serde_json::to_value(m)?))
            })
            .unwrap_or_else(|c| Err(anyhow::anyhow!("the case writer panicked: {}", c.message))),
            Subject::NearValid(nv) => {
                guard("finding writer", || write_near_valid(&tmp, slug, nv, &Extras { spvasm: true, mlir: false }))
                    .unwrap_or_else(|c| Err(anyhow::anyhow!("the case writer panicked: {}", c.message)))
            }
            Subject::Nothing => Err(anyhow::anyhow!("no module: generation panicked")),
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
        let finding = self.finding_json(sig, case, d, files_error.map(|e| format!("{e:#}")));
        manifest["finding"] = finding;
        let json_path = tmp.join(format!("{slug}.json"));
        std::fs::write(&json_path, format!("{}\n", serde_json::to_string_pretty(&manifest)?))
            .with_context(|| format!("cannot write {}", json_path.display()))?;
        let md_path = tmp.join(format!("{slug}.md"));
        std::fs::write(&md_path, note(slug, &manifest))
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
        Ok(manifest)
    }

    fn finding_json(
        &self,
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
        let (argv, output) = reproduce(case.seed, rule.map(|r| r.name()), self.context.config_json.is_some());
        let profiles = case.profiles.as_ref().map(|ps| ps.iter().map(|p| p.name()).collect::<Vec<_>>());
        let mut check = vec!["spvgraph".to_string(), "validate".into(), "--oracle".into()];
        check.push(if self.context.spirv_val { "both" } else { "in-tree" }.into());
        check.extend(["--target-env".into(), case.target_env.to_string()]);
        if let Some(p) = &profiles {
            check.extend(["--profiles".into(), p.join(",")]);
        }
        check.push(output.clone());
        let in_tree = match &case.in_tree {
            None => json!({ "ran": false }),
            Some(it) => json!({
                "ran": true,
                "valid": it.valid(),
                "rules": it.rules().iter().map(|r| r.name()).collect::<Vec<_>>(),
                "errors": it.errors.iter().take(20).map(|e| json!({
                    "rule": e.rule.name(),
                    "message": e.message,
                    "instruction": e.instruction,
                    "word_offset": e.word_offset,
                })).collect::<Vec<_>>(),
                "error_count": it.errors.len(),
                "warning_count": it.warnings,
            }),
        };
        let spirv_val = match &case.spirv_val {
            SpirvValOutcome::NotRun => json!({ "ran": false }),
            SpirvValOutcome::Valid => json!({ "ran": true, "valid": true }),
            SpirvValOutcome::Invalid(d) => json!({
                "ran": true,
                "valid": false,
                "message": d.message,
                "instruction": d.instruction,
                "word_offset": d.word_offset,
                "rule_guess": d.rule,
            }),
            SpirvValOutcome::Error(e) => json!({ "ran": true, "error": e }),
        };
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
        json!({
            "signature": sig.key(),
            "slug": sig.slug(),
            "kind": d.kind.name(),
            "meaning": d.kind.meaning(),
            "rule": d.rule,
            "operator": d.op,
            "discriminator": d.extra,
            "message": sig.message,
            "detail": d.detail,
            "documented": d.documented.as_ref().map(|(why, finding)| json!({ "why": why, "finding": finding })),
            "case": if rule.is_some() { "near-valid" } else { "valid" },
            "seed": case.seed,
            "hunt_index": case.index,
            "near_valid_unavailable": case.unavailable,
            "mutator": near.map(|nv| nv.mutator),
            "note": near.map(|nv| nv.note.as_str()),
            "target_env": case.target_env,
            "profiles": profiles,
            "verdicts": {
                "expected": expected,
                "in_tree": in_tree,
                "spirv_val": spirv_val,
                "roundtrip": roundtrip,
            },
            "reproduce": argv.join(" "),
            "reproduce_argv": argv,
            "reproduce_output": output,
            "check": check.join(" "),
            "files_error": files_error,
            "occurrences": 1,
            "spvgraph_version": env!("CARGO_PKG_VERSION"),
        })
    }
}

/// The command that regenerates case `seed` (run in the finding's
/// directory), and the module file it writes.
pub(super) fn reproduce(seed: u64, rule: Option<&str>, config: bool) -> (Vec<String>, String) {
    let mut argv: Vec<String> = ["spvgraph", "generate", "--seed"].map(String::from).to_vec();
    argv.extend([seed.to_string(), "--count".into(), "1".into()]);
    if let Some(r) = rule {
        argv.extend(["--near-valid".into(), "--rule".into(), r.to_string()]);
    }
    if config {
        argv.extend(["--config".into(), "config.json".into()]);
    }
    argv.extend(["--spvasm", "--no-mlir", "-o", "repro"].map(String::from));
    (argv, format!("repro/case_{seed}.spv"))
}

/// The `SLUG.md` note.
fn note(slug: &str, manifest: &Value) -> String {
    let f = &manifest["finding"];
    let s = |v: &Value| v.as_str().map(str::to_string).unwrap_or_else(|| "-".into());
    let mut out = format!("# {}: {}", s(&f["kind"]), s(&f["rule"]));
    if let Some(op) = f["operator"].as_str() {
        out.push_str(&format!(" ({op})"));
    }
    out.push_str(&format!("\n\n{}.\n\n{}\n\n", capitalize(&s(&f["meaning"])), s(&f["detail"])));
    out.push_str(&format!("- case: {} module, seed {}", s(&f["case"]), f["seed"]));
    if let Some(m) = f["mutator"].as_str() {
        out.push_str(&format!(", mutator `{m}`: {}", s(&f["note"])));
    }
    out.push_str(&format!("\n- target environment: {}", s(&f["target_env"])));
    let v = &f["verdicts"];
    let verdict = |x: &Value| -> String {
        if x["ran"] == json!(false) {
            "not run".into()
        } else if let Some(e) = x["error"].as_str() {
            format!("error: {e}")
        } else if x["valid"] == json!(true) {
            "accepts".into()
        } else if let Some(rules) = x["rules"].as_array() {
            let names: Vec<String> = rules.iter().filter_map(|r| r.as_str().map(str::to_string)).collect();
            format!("rejects: {}", names.join(", "))
        } else {
            format!("rejects: {}", s(&x["message"]))
        }
    };
    out.push_str(&format!(
        "\n- expected: {}",
        if v["expected"]["valid"] == json!(true) {
            "valid".into()
        } else {
            format!("breaks {}", s(&v["expected"]["rule"]))
        }
    ));
    out.push_str(&format!("\n- in-tree validator: {}", verdict(&v["in_tree"])));
    out.push_str(&format!("\n- spirv-val: {}", verdict(&v["spirv_val"])));
    out.push_str(&format!("\n- signature: `{}`\n", s(&f["signature"])));
    out.push_str(&format!(
        "\nReproduce (in this directory; writes `{}`):\n\n    {}\n    {}\n",
        s(&f["reproduce_output"]),
        s(&f["reproduce"]),
        s(&f["check"])
    ));
    out.push_str(&format!("\nThe module is `{slug}.spv`; `{slug}.json` has both verdicts in full.\n"));
    out
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_lose_ids_and_numbers() {
        assert_eq!(
            normalize("Expected Result Type <id> '23[%tensor_float_1x8]' to have  12 elements"),
            "Expected Result Type <id> 'N[%]' to have N elements"
        );
        assert_eq!(normalize("a\n  b"), "a b");
        assert_eq!(normalize(&"x".repeat(500)).len(), 160);
    }

    #[test]
    fn slugs_are_file_names_and_differ_with_the_message() {
        let d = Disagreement {
            kind: Kind::SpirvValStricter,
            rule: Some("tosa.shape.output".into()),
            op: Some("CONV2D".into()),
            extra: None,
            message: Some("Result Type 7 wrong".into()),
            detail: String::new(),
            documented: None,
        };
        let a = Signature::of(&d);
        assert!(a.slug().starts_with("spirv-val-stricter--tosa.shape.output--conv2d--"), "{}", a.slug());
        assert!(a.slug().chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-'));
        let same = Signature::of(&Disagreement { message: Some("Result Type 9 wrong".into()), ..d.clone() });
        assert_eq!(a.key(), same.key());
        let other = Signature::of(&Disagreement { message: Some("Operand wrong".into()), ..d });
        assert_ne!(a.slug(), other.slug());
    }

    #[test]
    fn reproduce_commands_name_the_rule_and_config() {
        let (argv, out) = reproduce(42, Some("tosa.shape.output"), true);
        assert_eq!(
            argv.join(" "),
            "spvgraph generate --seed 42 --count 1 --near-valid --rule tosa.shape.output --config config.json \
             --spvasm --no-mlir -o repro"
        );
        assert_eq!(out, "repro/case_42.spv");
        let (argv, _) = reproduce(7, None, false);
        assert_eq!(argv.join(" "), "spvgraph generate --seed 7 --count 1 --spvasm --no-mlir -o repro");
    }
}

//! `spvgraph findings merge`: findings directories of several hunts (a hunt
//! sharded by seed range over many machines) merged into one by signature.
//!
//! Per signature the case with the smallest seed is kept (each shard's
//! smallest-index case; seeds are global, indices are per shard), the
//! occurrences are summed run by run (each run's count once, however many
//! inputs carry a copy of it: see [`findings::occurrences_by_run`]), the
//! example seeds united (the smallest ten), and the tool versions every
//! shard ran with are listed under `finding.versions_seen` (shards on other
//! releases show up there). The kept finding's files are copied whole
//! (subdirectories, such as a reproduce command's `repro/`, are not), its
//! manifest and note rewritten. The output may be an existing findings
//! directory, one of the inputs or not: its findings are merged too (a
//! merge in place).
//!
//! With a *known* directory (a nightly store of earlier nights' findings,
//! read before anything is written, so it may be the output itself), the
//! merge also says which signatures are new: neither in it nor documented.
//! The output's `summary.json` marks those, and only those, `new`, so the
//! report's "New since the last run" lists them.

use super::findings::{self, Finding};
use super::note;
use anyhow::Context;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// How many example seeds a merged finding lists.
const EXAMPLES: usize = 10;

/// What a merge did.
#[derive(Clone, Debug, Default)]
pub struct Merged {
    /// Findings read from the inputs.
    pub read: usize,
    /// Distinct signatures written.
    pub signatures: usize,
    /// Signatures found by more than one input.
    pub shared: usize,
    /// The output's findings directory.
    pub dir: PathBuf,
    /// With a known directory: the signatures in neither it nor the
    /// documented discrepancies, by slug (empty without one).
    pub new: Vec<NewSignature>,
}

/// A signature the known directory did not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSignature {
    /// Its finding's directory name under the output's `findings/`.
    pub slug: String,
    /// Its kind.
    pub kind: String,
    /// The signature key.
    pub signature: String,
}

/// The signatures of the findings under `known` (a hunt output directory
/// or a findings directory). A missing directory is an error: a mistyped
/// path would otherwise make every signature new.
pub fn known_signatures(known: &Path) -> anyhow::Result<BTreeSet<String>> {
    if !known.is_dir() {
        anyhow::bail!("--known {}: not a directory (an empty one stands for no earlier findings)", known.display());
    }
    Ok(findings::read(&findings::findings_dir(known))?.iter().map(|f| f.key().to_string()).collect())
}

/// Merges the findings of `inputs` (hunt output directories or findings
/// directories) and those already in `out` into `out/findings/`, then
/// rebuilds `out/summary.json`. With `known` (read first), the signatures
/// it lacks that are not documented are the merge's [`Merged::new`].
pub fn merge(inputs: &[PathBuf], out: &Path, known: Option<&Path>) -> anyhow::Result<Merged> {
    let known = known.map(known_signatures).transpose()?;
    let mut groups: BTreeMap<String, Vec<Finding>> = BTreeMap::new();
    let mut read = 0;
    let canonical = |p: &Path| findings::findings_dir(p).canonicalize().ok();
    // The hunts merged (the output's own findings are earlier merges').
    let hunts = hunts_of(inputs.iter().filter(|i| canonical(out).is_none() || canonical(i) != canonical(out)));
    // Merging into an existing directory merges its own findings too.
    let mut inputs = inputs.to_vec();
    if canonical(out).is_some() && !inputs.iter().any(|i| canonical(i) == canonical(out)) {
        inputs.push(out.to_path_buf());
    }
    for input in &inputs {
        let dir = findings::findings_dir(input);
        if !dir.is_dir() {
            anyhow::bail!("{}: not a directory", input.display());
        }
        for f in findings::read(&dir)? {
            read += 1;
            groups.entry(f.key().to_string()).or_default().push(f);
        }
    }
    let dest_dir = out.join("findings");
    std::fs::create_dir_all(&dest_dir).with_context(|| format!("cannot create {}", dest_dir.display()))?;
    let mut shared = 0;
    let mut new = Vec::new();
    for (key, group) in &groups {
        shared += usize::from(group.len() > 1);
        let slug = write_merged(group, &dest_dir)?;
        let unknown = known.as_ref().is_some_and(|k| !k.contains(key));
        if unknown && !group.iter().any(Finding::documented) {
            let kind = group.first().map(|f| f.text("kind").to_string()).unwrap_or_default();
            new.push(NewSignature { slug, kind, signature: key.clone() });
        }
    }
    let keys: BTreeSet<String> = new.iter().map(|n| n.signature.clone()).collect();
    let mut summary = super::summary::rebuild_marking_new(out, known.as_ref().map(|_| &keys))?;
    summary["merged"] = merged_json(&hunts);
    summary["cases"] = json!(hunts.iter().filter_map(|h| h["cases"].as_u64()).sum::<u64>());
    let seeds = |field: &'static str| hunts.iter().filter_map(move |h| h["seeds"][field].as_u64());
    summary["seeds"] = json!({ "first": seeds("first").min(), "last": seeds("last").max() });
    summary["why"] = json!("merged by spvgraph findings merge: the findings and each hunt's cases; per-oracle counts and timings are in each hunt's own summary.json");
    let path = out.join("summary.json");
    super::progress::write_atomically(&path, &format!("{}\n", serde_json::to_string_pretty(&summary)?))?;
    Ok(Merged { read, signatures: groups.len(), shared, dir: dest_dir, new })
}

/// What each input hunt's `summary.json` says about its range (nothing for
/// a findings directory without one): its directory, shard, cases, seeds
/// and new signatures (relative to what it hunted into).
fn hunts_of<'a>(inputs: impl Iterator<Item = &'a PathBuf>) -> Vec<Value> {
    inputs
        .filter_map(|dir| {
            let text = std::fs::read_to_string(dir.join("summary.json")).ok()?;
            let s: Value = serde_json::from_str(&text).ok()?;
            Some(json!({
                "dir": dir,
                "shard": s["shard"],
                "cases": s["cases"],
                "seeds": s["seeds"],
                "new_signatures": s["findings"]["new_signatures"],
            }))
        })
        .collect()
}

fn merged_json(hunts: &[Value]) -> Value {
    json!({ "hunts": hunts.len(), "inputs": hunts })
}

/// The manifest of the merged finding: `kept`'s, with the counts of `group`.
pub fn merged_manifest(kept: &Finding, group: &[Finding]) -> Value {
    let mut m = kept.manifest.clone();
    // Each run's count once: inputs that hunted into copies of one store
    // all carry the store's runs (the largest copy of a run is its latest).
    let mut by_run: BTreeMap<String, u64> = BTreeMap::new();
    for f in group {
        for (run, n) in f.occurrences_by_run() {
            let slot = by_run.entry(run).or_default();
            *slot = (*slot).max(n);
        }
    }
    let occurrences: u64 = by_run.values().sum();
    let mut examples: BTreeSet<u64> = BTreeSet::new();
    let mut versions: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in group {
        let seeds = f.finding()["example_seeds"].as_array().into_iter().flatten().filter_map(Value::as_u64);
        examples.extend(seeds.chain([f.seed()]));
        for (oracle, v) in f.finding()["versions"].as_object().into_iter().flatten() {
            if let Some(v) = v.as_str() {
                versions.entry(oracle.clone()).or_default().insert(v.to_string());
            }
        }
    }
    let finding = &mut m["finding"];
    finding["occurrences"] = json!(occurrences);
    finding["occurrences_by_run"] = json!(by_run);
    finding["example_seeds"] = json!(examples.into_iter().take(EXAMPLES).collect::<Vec<_>>());
    finding["versions_seen"] = json!(versions);
    finding["merged_from"] = json!(group.len());
    if group.iter().any(Finding::documented) && !finding["documented"].is_object() {
        if let Some(doc) = group.iter().find(|f| f.documented()) {
            finding["documented"] = doc.finding()["documented"].clone();
        }
    }
    m
}

/// Writes the merged finding of `group` under `dest_dir`; returns its slug.
fn write_merged(group: &[Finding], dest_dir: &Path) -> anyhow::Result<String> {
    let Some(kept) = group.iter().min_by(|a, b| (a.seed(), &a.slug).cmp(&(b.seed(), &b.slug))) else {
        return Ok(String::new());
    };
    let manifest = merged_manifest(kept, group);
    let slug = &kept.slug;
    let dest = dest_dir.join(slug);
    let same = dest.canonicalize().ok().is_some_and(|d| kept.dir.canonicalize().ok() == Some(d));
    let target = if same {
        dest.clone()
    } else {
        let tmp = dest_dir.join(format!(".merge-{slug}"));
        let _ = std::fs::remove_dir_all(&tmp);
        copy_files(&kept.dir, &tmp)?;
        tmp
    };
    let json_path = target.join(format!("{slug}.json"));
    super::progress::write_atomically(&json_path, &format!("{}\n", serde_json::to_string_pretty(&manifest)?))?;
    super::progress::write_atomically(&target.join(format!("{slug}.md")), &note::note(slug, &manifest))?;
    if !same {
        if dest.exists() {
            std::fs::remove_dir_all(&dest).with_context(|| format!("cannot replace {}", dest.display()))?;
        }
        std::fs::rename(&target, &dest).with_context(|| format!("cannot move {} into place", target.display()))?;
    }
    Ok(slug.clone())
}

/// Copies the files directly in `from` into a new directory `to`.
fn copy_files(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    for item in std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))?.flatten() {
        if item.path().is_file() {
            let dest = to.join(item.file_name());
            std::fs::copy(item.path(), &dest)
                .with_context(|| format!("cannot copy {} to {}", item.path().display(), dest.display()))?;
        }
    }
    Ok(())
}

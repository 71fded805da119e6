//! `spvgraph findings merge`: findings directories of several hunts (a hunt
//! sharded by seed range over many machines) merged into one by signature.
//!
//! Per signature the case with the smallest seed is kept (each shard's
//! smallest-index case; seeds are global, indices are per shard), the
//! occurrences are summed, the example seeds united (the smallest ten),
//! and the tool versions every shard ran with are listed under
//! `finding.versions_seen` (shards on other releases show up there). The
//! kept finding's files are copied whole (subdirectories, such as a
//! reproduce command's `repro/`, are not), its manifest and note
//! rewritten. The output may be an existing findings directory, one of the
//! inputs or not: its findings are merged too (a merge in place).

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
}

/// Merges the findings of `inputs` (hunt output directories or findings
/// directories) and those already in `out` into `out/findings/`, then
/// rebuilds `out/summary.json`.
pub fn merge(inputs: &[PathBuf], out: &Path) -> anyhow::Result<Merged> {
    let mut groups: BTreeMap<String, Vec<Finding>> = BTreeMap::new();
    let mut read = 0;
    // Merging into an existing directory merges its own findings too.
    let mut inputs = inputs.to_vec();
    let canonical = |p: &Path| findings::findings_dir(p).canonicalize().ok();
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
    for group in groups.values() {
        shared += usize::from(group.len() > 1);
        write_merged(group, &dest_dir)?;
    }
    super::summary::rebuild(out)?;
    Ok(Merged { read, signatures: groups.len(), shared, dir: dest_dir })
}

/// The manifest of the merged finding: `kept`'s, with the counts of `group`.
pub fn merged_manifest(kept: &Finding, group: &[Finding]) -> Value {
    let mut m = kept.manifest.clone();
    let occurrences: u64 = group.iter().map(Finding::occurrences).sum();
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

fn write_merged(group: &[Finding], dest_dir: &Path) -> anyhow::Result<()> {
    let Some(kept) = group.iter().min_by(|a, b| (a.seed(), &a.slug).cmp(&(b.seed(), &b.slug))) else {
        return Ok(());
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
    Ok(())
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

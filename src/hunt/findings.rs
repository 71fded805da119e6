//! Findings directories read back: what `summary.json` is rebuilt from
//! after a killed hunt, what `spvgraph findings merge` merges and what
//! `spvgraph report` reports.

use anyhow::Context;
use serde_json::Value;
use spvgraph_oracle::judge::Kind;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One finding on disk: `DIR/SLUG/SLUG.json` with a `finding` object.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Its directory.
    pub dir: PathBuf,
    /// The directory's name, the stem of its files.
    pub slug: String,
    /// `SLUG.json`.
    pub manifest: Value,
}

impl Finding {
    /// The `finding` object.
    pub fn finding(&self) -> &Value {
        &self.manifest["finding"]
    }

    /// The signature key.
    pub fn key(&self) -> &str {
        self.finding()["signature"].as_str().unwrap_or("")
    }

    /// Its kind.
    pub fn kind(&self) -> Option<Kind> {
        self.finding()["kind"].as_str().and_then(Kind::from_name)
    }

    /// A string field of the finding (`""` when absent).
    pub fn text(&self, field: &str) -> &str {
        self.finding()[field].as_str().unwrap_or("")
    }

    /// Occurrences over every run into its directory.
    pub fn occurrences(&self) -> u64 {
        self.finding()["occurrences"].as_u64().unwrap_or(1)
    }

    /// Its occurrences by the run that counted them (see [`occurrences_by_run`]).
    pub fn occurrences_by_run(&self) -> BTreeMap<String, u64> {
        occurrences_by_run(self.finding())
    }

    /// How far its case was reduced, in words: the reduced size in
    /// graph nodes, and whether the reducer's time ran out first (then the
    /// case may not be minimal); "as found" when it was not reduced.
    pub fn reduction(&self) -> String {
        let r = &self.manifest["reduction"];
        let Some(nodes) = r["nodes"]["reduced"].as_u64() else {
            return "as found (not reduced)".into();
        };
        let from = r["nodes"]["original"].as_u64().map(|n| format!(" (from {n})")).unwrap_or_default();
        if r["time_limit_reached"] == Value::Bool(true) {
            format!("{nodes} nodes{from}, time limit reached: maybe not minimal")
        } else {
            format!("{nodes} nodes{from}")
        }
    }

    /// The seed of its case.
    pub fn seed(&self) -> u64 {
        self.finding()["seed"].as_u64().unwrap_or(u64::MAX)
    }

    /// Whether it is an instance of a documented discrepancy.
    pub fn documented(&self) -> bool {
        self.finding()["documented"].is_object()
    }

    /// The run that first wrote it.
    pub fn run(&self) -> Option<&str> {
        self.finding()["run"].as_str()
    }

    /// The oracles involved.
    pub fn oracles(&self) -> Vec<String> {
        strings(&self.finding()["oracles"])
    }
}

/// The occurrences a `finding` object records, by the run that counted
/// them: its `occurrences_by_run`, or, for a finding written before runs
/// were told apart, all its `occurrences` under the run that first wrote it.
///
/// Why by run: a nightly shard hunts into a copy of the findings of earlier
/// nights, so each shard's copy of a known finding carries the earlier
/// nights' counts too. Merging takes each run's count once (the largest
/// copy of it), where a plain sum would count the earlier nights once per
/// shard, and merging the same directories again changes nothing.
pub fn occurrences_by_run(finding: &Value) -> BTreeMap<String, u64> {
    if let Some(map) = finding["occurrences_by_run"].as_object() {
        return map.iter().filter_map(|(run, n)| Some((run.clone(), n.as_u64()?))).collect();
    }
    let run = finding["run"].as_str().unwrap_or("").to_string();
    BTreeMap::from([(run, finding["occurrences"].as_u64().unwrap_or(1))])
}

/// The strings of a JSON array (nothing for anything else).
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array().into_iter().flatten().filter_map(|x| x.as_str().map(str::to_string)).collect()
}

/// The findings directory of `dir`: `dir/findings` when `dir` is a hunt's
/// output directory, else `dir` itself.
pub fn findings_dir(dir: &Path) -> PathBuf {
    let inner = dir.join("findings");
    if inner.is_dir() {
        inner
    } else {
        dir.to_path_buf()
    }
}

/// Every finding under `findings` (a `findings/` directory), by slug.
/// Temporary directories of a killed run (names starting with `.`) and
/// directories without a finding manifest are skipped.
pub fn read(findings: &Path) -> anyhow::Result<Vec<Finding>> {
    let listing = match std::fs::read_dir(findings) {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", findings.display())),
    };
    let mut out = Vec::new();
    for item in listing.flatten() {
        let slug = item.file_name().to_string_lossy().into_owned();
        if slug.starts_with('.') || !item.path().is_dir() {
            continue;
        }
        let path = item.path().join(format!("{slug}.json"));
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let manifest: Value =
            serde_json::from_str(&text).with_context(|| format!("{}: not a finding manifest", path.display()))?;
        if manifest["finding"]["signature"].is_string() {
            out.push(Finding { dir: item.path(), slug, manifest });
        }
    }
    out.sort_by(|a, b| a.slug.cmp(&b.slug));
    Ok(out)
}

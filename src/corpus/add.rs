//! `corpus add`: promotes a hunt finding (a directory `OUT/findings/SLUG/`,
//! laid out as [`crate::hunt`]'s store writes it) into `corpus/findings/`
//! as `SLUG.*`: the reduced case, its manifest and its note. The case as
//! found before reduction (`SLUG.orig.*`) and the hunt's `config.json` stay
//! behind.

use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// Copies the finding in `finding_dir` into `findings` (created if missing);
/// returns the files written. Fails when the directory holds no
/// `SLUG.json`/`SLUG.spv`/`SLUG.md`, or when `findings` already has a
/// `SLUG.json` and `replace` is false.
pub fn add(finding_dir: &Path, findings: &Path, replace: bool) -> anyhow::Result<Vec<PathBuf>> {
    let slug = finding_dir
        .canonicalize()
        .with_context(|| format!("{}: no such finding directory", finding_dir.display()))?
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .context("the finding directory has no name")?;
    for required in ["json", "spv", "md"] {
        let p = finding_dir.join(format!("{slug}.{required}"));
        if !p.is_file() {
            bail!("{}: missing; not a finding directory written by spvgraph hunt", p.display());
        }
    }
    if findings.join(format!("{slug}.json")).exists() && !replace {
        bail!("{}: already holds {slug}.json (pass --replace to overwrite it)", findings.display());
    }
    std::fs::create_dir_all(findings).with_context(|| format!("{}: cannot create", findings.display()))?;
    let prefix = format!("{slug}.");
    let original = format!("{slug}.orig.");
    let mut names: Vec<String> = std::fs::read_dir(finding_dir)
        .with_context(|| format!("{}: cannot list", finding_dir.display()))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&prefix) && !n.starts_with(&original))
        .collect();
    names.sort();
    let mut written = Vec::new();
    for n in names {
        let to = findings.join(&n);
        std::fs::copy(finding_dir.join(&n), &to)
            .with_context(|| format!("cannot copy {} to {}", finding_dir.join(&n).display(), to.display()))?;
        written.push(to);
    }
    Ok(written)
}

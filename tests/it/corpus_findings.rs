//! Every finding in `corpus/findings/` is either still checked or marked
//! fixed: its minimal module is a documented discrepancy of a registry
//! oracle (whose per-tool test, `oracle/tests/*_findings.rs`,
//! `near_valid_spirv_val.rs` or `ecosystem.rs`, checks that it still
//! reproduces), or its manifest carries an upstream reproducer that
//! `upstream_reproducers` runs against the pinned tool and checks, or it
//! records `fixed_in` with the version that fixed it. A finding promoted with
//! `spvgraph corpus add` fails here until one of these holds. (A name in a
//! test's source, a comment say, is not a check.)

use crate::upstream_reproducers::checked_reproducer;
use spvgraph_oracle::external::spirv_val::known;
use spvgraph_oracle::oracle::KnownDiscrepancy;
use spvgraph_oracle::registry::{self, OracleConfig};
use spvgraph_testkit::bin;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Finding stems the documented-discrepancy tables name.
fn documented() -> BTreeSet<String> {
    let oracles = registry::build_all(&OracleConfig::default());
    let tables: Vec<&[KnownDiscrepancy]> = oracles
        .iter()
        .map(|o| o.known_discrepancies())
        .chain([known::SPIRV_VAL_KNOWN, known::SPIRV_VAL_MAIN_KNOWN, known::SPIRV_VAL_REJECTS_VALID])
        .collect();
    tables
        .into_iter()
        .flatten()
        .filter_map(|k| Path::new(k.finding).file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect()
}

/// `fixed_in` at the top of the manifest or in its `finding` object, when
/// it names a version (has a digit).
fn fixed_in(manifest: &serde_json::Value) -> Option<String> {
    [&manifest["fixed_in"], &manifest["finding"]["fixed_in"]]
        .into_iter()
        .filter_map(|v| v.as_str())
        .find(|s| s.chars().any(|c| c.is_ascii_digit()))
        .map(str::to_string)
}

#[test]
fn every_finding_still_reproduces_or_is_marked_fixed() {
    let dir = repo().join("corpus/findings");
    let documented = documented();
    let mut stems: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .expect("corpus/findings")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| p.file_stem().map(|s| (s.to_string_lossy().into_owned(), p.clone())))
        // `STEM.scenario.json`, `STEM.desc.json`: a tool's input, not a manifest.
        .filter(|(stem, _)| !stem.contains('.'))
        .collect();
    stems.sort();
    assert!(stems.len() >= 30, "only {} findings", stems.len());
    let mut uncovered = Vec::new();
    for (stem, path) in &stems {
        let text = std::fs::read_to_string(path).expect("manifest");
        let manifest: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert!(dir.join(format!("{stem}.md")).is_file(), "{stem}: no .md note");
        let reproduced = checked_reproducer(&manifest);
        if !(documented.contains(stem) || reproduced.is_ok() || fixed_in(&manifest).is_some()) {
            uncovered.push(format!("{stem} ({})", reproduced.err().unwrap_or_default()));
        }
    }
    assert!(uncovered.is_empty(), "findings neither checked by a test nor marked fixed: {uncovered:?}");
}

#[test]
fn corpus_add_copies_the_reduced_case_and_leaves_the_original_behind() {
    let base = spvgraph_testkit::scratch("corpus-add");
    let finding = base.join("hunt/findings/spirv-val-misses-x");
    let findings = base.join("corpus/findings");
    std::fs::create_dir_all(&finding).expect("dirs");
    let src = repo().join("corpus/findings");
    let stem = "spirv-val-concat-without-inputs";
    for (from, to) in [("json", "json"), ("spv", "spv"), ("md", "md"), ("spv", "orig.spv")] {
        std::fs::copy(src.join(format!("{stem}.{from}")), finding.join(format!("spirv-val-misses-x.{to}")))
            .expect("copy");
    }
    std::fs::write(finding.join("config.json"), "{}").expect("config");
    let written = spvgraph::corpus::add::add(&finding, &findings, false).expect("added");
    let mut names: Vec<String> =
        written.iter().filter_map(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["spirv-val-misses-x.json", "spirv-val-misses-x.md", "spirv-val-misses-x.spv"]);
    assert!(spvgraph::corpus::add::add(&finding, &findings, false).is_err(), "a second add must not overwrite");
    assert!(spvgraph::corpus::add::add(&finding, &findings, true).is_ok());
    assert!(spvgraph::corpus::add::add(&base.join("nope"), &findings, false).is_err());
}

/// `spvgraph diff` (every oracle available here) over every corpus finding:
/// each `DISAGREE` line is the finding's own documented bug. Another known
/// bug the case happens to meet is a `KNOWN` line, a consumer's answer on an
/// invalid module a `NOTE`, elements the reference model itself fails an
/// `UNJUDGED` one; none of these fails the command, so each run exits 0.
#[test]
fn diff_over_every_finding_shows_only_its_own_documented_bug() {
    let dir = repo().join("corpus/findings");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus/findings")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "spv") && !p.to_string_lossy().ends_with(".orig.spv"))
        .collect();
    files.sort();
    assert!(files.len() >= 30, "{} findings", files.len());
    // Two at a time: each runs every backend once.
    let reports: Vec<(PathBuf, i32, String)> = files
        .chunks(files.len().div_ceil(2))
        .map(|chunk| {
            let chunk = chunk.to_vec();
            std::thread::spawn(move || {
                chunk
                    .into_iter()
                    .map(|f| {
                        let out = bin!().arg("diff").arg(&f).current_dir(repo()).output().expect("run spvgraph diff");
                        let text =
                            String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
                        (f, out.status.code().unwrap_or(-1), text)
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .flat_map(|h| h.join().expect("a diff thread"))
        .collect();
    let mut problems = Vec::new();
    for (file, code, text) in &reports {
        let foreign: Vec<&str> = text
            .lines()
            .filter(|l| l.trim_start().starts_with("DISAGREE ") && !l.contains("(documented: this finding)"))
            .collect();
        if code != &0 || !foreign.is_empty() {
            problems.push(format!("{} (exit {code}):\n{}", file.display(), foreign.join("\n")));
        }
    }
    assert!(
        problems.is_empty(),
        "{} finding(s) show more than their own bug:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

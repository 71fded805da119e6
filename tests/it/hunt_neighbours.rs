//! `spvgraph hunt --neighbours N`: a finding's case is mutated and the
//! mutants run through the hunt. The finding is planted with the hidden
//! `--inject-panic SEED`, which also fires on the mutants (they keep their
//! case's seed), so each mutant shows the same signature: counted, not
//! filed again.

use serde_json::Value;
use spvgraph_testkit::{bin, scratch};
use std::path::{Path, PathBuf};

/// `hunt` of case seed 900 with the in-tree oracles, the planted panic at
/// 900 and `--neighbours n`: exit code and summary.
fn hunt(dir: &Path, neighbours: &str) -> (i32, Value) {
    let out = bin!()
        .args(["hunt", "--seed", "900", "--count", "1", "--oracles", "in-tree", "--near-valid-ratio", "0"])
        .args(["--jobs", "1", "--no-reduce", "--inject-panic", "900", "--neighbours", neighbours])
        .args(["--quiet", "--json", "--out"])
        .arg(dir)
        .output()
        .expect("run spvgraph");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("summary is JSON ({e}): {stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), summary)
}

fn finding_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir.join("findings"))
        .expect("findings/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn a_planted_finding_runs_its_neighbours_and_counts_them_without_filing_them_again() {
    let d = scratch("on");
    let (code, s) = hunt(&d, "3");
    assert_eq!(code, 1, "a new finding: {s}");
    let n = &s["neighbours"];
    assert_eq!(n["findings"], 1, "{n}");
    assert_eq!(n["run"], 3, "three mutants of the case ran: {n}");
    assert_eq!(n["same_signature"], 3, "each showed the planted panic: {n}");
    assert_eq!(n["new_signature"], 0, "{n}");
    // One finding, seen four times (the case and its three mutants).
    let dirs = finding_dirs(&d);
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    let sigs = s["findings"]["list"].as_array().expect("findings.list");
    assert_eq!(sigs.len(), 1, "{sigs:?}");
    assert_eq!(sigs[0]["occurrences"], 4, "{sigs:?}");

    // The same seed gives the same neighbours and the same counts.
    let (_, again) = hunt(&scratch("again"), "3");
    assert_eq!(again["neighbours"], s["neighbours"]);

    // --neighbours 0 runs none.
    let (code, off) = hunt(&scratch("off"), "0");
    assert_eq!(code, 1);
    assert_eq!(off["neighbours"]["run"], 0, "{off}");
    assert_eq!(off["findings"]["list"][0]["occurrences"], 1, "{off}");
}

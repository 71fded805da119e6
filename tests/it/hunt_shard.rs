//! `spvgraph hunt --shard K/N`: one seed range hunted once, and again as
//! shards merged with `spvgraph findings merge`, gives the same signatures,
//! the same occurrence counts and the same findings (the smallest-seed case
//! of each signature, byte for byte). The in-tree oracles make it quick; the
//! findings are real ones of the near-valid cases plus planted panics.

use serde_json::Value;
use spvgraph_testkit::{bin, scratch};
use std::collections::BTreeMap;
use std::path::Path;

const SEED: u64 = 31_000;
const COUNT: u64 = 3_000;

fn hunt(out: &Path, shard: Option<&str>) {
    let mut a: Vec<String> =
        ["hunt", "--count", &COUNT.to_string(), "--seed", &SEED.to_string()].into_iter().map(String::from).collect();
    a.extend(
        ["--oracles", "in-tree,spirv-val", "--no-reduce", "--neighbours", "0", "--quiet", "--json"].map(String::from),
    );
    for s in (SEED + 3..SEED + COUNT).step_by(211) {
        a.extend(["--inject-panic".to_string(), s.to_string()]);
    }
    if let Some(k) = shard {
        a.extend(["--shard".to_string(), k.to_string()]);
    }
    a.extend(["--out".to_string(), out.display().to_string()]);
    let run = bin!().args(&a).output().expect("run spvgraph");
    // 1: new signatures (the planted panics); both are a finished hunt.
    assert!(matches!(run.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&run.stderr));
}

/// Signature → (occurrences, the finding's module and seed).
fn findings(dir: &Path) -> BTreeMap<String, (u64, Vec<u8>, Value)> {
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).expect("summary")).expect("json");
    let mut out = BTreeMap::new();
    for f in summary["findings"]["list"].as_array().expect("findings list") {
        let key = f["signature"].as_str().expect("signature").to_string();
        let slug_dir = Path::new(f["dir"].as_str().expect("dir")).to_path_buf();
        let slug = slug_dir.file_name().expect("slug").to_string_lossy().into_owned();
        let spv = std::fs::read(dir.join("findings").join(&slug).join(format!("{slug}.spv"))).unwrap_or_default();
        let manifest: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("findings").join(&slug).join(format!("{slug}.json"))).expect("manifest"),
        )
        .expect("manifest json");
        out.insert(key, (f["occurrences"].as_u64().expect("occurrences"), spv, manifest["finding"]["seed"].clone()));
    }
    out
}

#[test]
fn two_merged_shards_give_what_one_hunt_gives() {
    let d = scratch("shard");
    let whole = d.join("whole");
    hunt(&whole, None);
    let (a, b) = (d.join("shard0"), d.join("shard1"));
    hunt(&a, Some("0/2"));
    hunt(&b, Some("1/2"));
    let merged = d.join("merged");
    let m = bin!()
        .args(["findings", "merge"])
        .arg(&a)
        .arg(&b)
        .arg("--out")
        .arg(&merged)
        .output()
        .expect("run findings merge");
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    let (one, two) = (findings(&whole), findings(&merged));
    assert!(one.len() >= 3, "too few findings to compare: {:?}", one.keys());
    assert_eq!(one.keys().collect::<Vec<_>>(), two.keys().collect::<Vec<_>>(), "signatures differ");
    for (key, (n, spv, seed)) in &one {
        let (m, spv2, seed2) = &two[key];
        assert_eq!(n, m, "{key}: occurrences");
        assert_eq!(seed, seed2, "{key}: the kept case's seed");
        assert_eq!(spv, spv2, "{key}: the kept module");
    }
    // Each shard ran its own half of the range.
    let s0: Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("summary.json")).expect("summary")).expect("json");
    assert_eq!(s0["cases"], COUNT.div_ceil(2));
    assert_eq!(s0["shard"], "0/2");
    assert_eq!(s0["seeds"]["step"], 2);
}

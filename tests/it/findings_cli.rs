//! `spvgraph findings merge` (shards of one hunt merged by signature) and
//! `spvgraph report` (Markdown and HTML of a hunt directory). Findings are
//! planted with the hidden `--inject-panic SEED`, so they exist whatever
//! the oracles say.

use serde_json::Value;
use spvgraph_testkit::{bin, scratch};
use std::path::Path;

fn spvgraph(args: &[&str]) -> (i32, String, String) {
    let out = bin!().args(args).output().expect("run spvgraph");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A shard: `count` cases from `seed`, validator panics planted at `panics`.
fn shard(out: &Path, seed: u64, count: u64, panics: &[u64]) -> Value {
    let (seed, count) = (seed.to_string(), count.to_string());
    let mut args = vec!["hunt", "--count", &count, "--seed", &seed, "--oracles", "in-tree", "--near-valid-ratio", "0"];
    // The counts below are the hunt's own cases: no mutants of its findings.
    args.extend(["--no-reduce", "--quiet", "--json", "--jobs", "1", "--neighbours", "0"]);
    let planted: Vec<String> = panics.iter().map(u64::to_string).collect();
    for p in &planted {
        args.extend(["--inject-panic", p.as_str()]);
    }
    let dir = out.display().to_string();
    args.extend(["--out", dir.as_str()]);
    let (code, stdout, err) = spvgraph(&args);
    assert!(code == 0 || code == 1, "{err}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("summary ({e}): {stdout}\n{err}"))
}

fn only_finding(dir: &Path) -> (String, Value) {
    let found: Vec<_> = std::fs::read_dir(dir.join("findings"))
        .expect("findings")
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert_eq!(found.len(), 1, "one signature");
    let slug = found[0].file_name().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(found[0].path().join(format!("{slug}.json"))).expect("manifest");
    (slug, serde_json::from_str(&text).expect("JSON"))
}

#[test]
fn shards_merge_by_signature_keeping_the_smallest_seed() {
    let d = scratch("merge");
    // Two machines, two seed ranges, the same bug.
    shard(&d.join("a"), 100, 10, &[103, 105]);
    shard(&d.join("b"), 110, 10, &[112]);
    let (code, out, err) = spvgraph(&[
        "findings",
        "merge",
        &d.join("b").display().to_string(),
        &d.join("a").display().to_string(),
        "--out",
        &d.join("all").display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 findings of 2 directories into 1 signatures (1 found by more than one)"), "{out}");
    let (slug, m) = only_finding(&d.join("all"));
    let f = &m["finding"];
    assert_eq!(f["seed"], 103, "the smallest seed of either shard: {f}");
    assert_eq!(f["occurrences"], 3, "{f}");
    assert_eq!(f["example_seeds"], serde_json::json!([103, 105, 112]));
    assert_eq!(f["merged_from"], 2);
    assert!(f["versions_seen"]["in-tree"].is_array(), "{f}");
    // The kept case's files came along, and the note tells the merged counts.
    let kept = d.join("all/findings").join(&slug);
    assert_eq!(
        std::fs::read(kept.join(format!("{slug}.spv"))).expect("module"),
        std::fs::read(d.join("a/findings").join(&slug).join(format!("{slug}.spv"))).expect("module of shard a")
    );
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("all/summary.json")).expect("summary")).expect("JSON");
    assert_eq!(summary["findings"]["signatures"], 1, "{summary}");
    assert_eq!(summary["findings"]["occurrences"], 3, "{summary}");

    // In place: merging shard b into shard a.
    let (code, _, err) = spvgraph(&[
        "findings",
        "merge",
        &d.join("b").display().to_string(),
        "--out",
        &d.join("a").display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, m) = only_finding(&d.join("a"));
    assert_eq!((m["finding"]["seed"].clone(), m["finding"]["occurrences"].clone()), (Value::from(103), Value::from(3)));
    let (code, _, err) = spvgraph(&[
        "findings",
        "merge",
        &d.join("nothing").display().to_string(),
        "--out",
        &d.join("x").display().to_string(),
    ]);
    assert_eq!(code, 2, "a missing input is an error: {err}");
}

#[test]
fn the_report_lists_new_findings_coverage_and_reproduce_commands() {
    let d = scratch("report");
    let out = d.join("hunt");
    let s = shard(&out, 300, 12, &[304]);
    assert_eq!(s["findings"]["new_signatures"], 1, "{s}");
    let (code, _, err) = spvgraph(&["report", &out.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let (slug, m) = only_finding(&out);
    let md = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    let new_part = md.split("## New since the last run").nth(1).and_then(|t| t.split("\n## ").next()).expect("section");
    assert!(new_part.contains(&slug), "the planted finding is new: {new_part}");
    // The link from the report to the note resolves, and the reproduce command is the finding's.
    let link = format!("findings/{slug}/{slug}.md");
    assert!(md.contains(&format!("]({link})")) && out.join(&link).is_file(), "{md}");
    let reproduce = m["finding"]["reproduce"].as_str().expect("reproduce");
    assert!(md.contains(reproduce), "{md}");
    for section in [
        "Findings by oracle",
        "Findings by kind",
        "Findings by severity",
        "Findings by operator",
        "Throughput",
        "Operator × type-row coverage",
    ] {
        assert!(md.contains(&format!("## {section}")), "{section}: {md}");
        assert!(html.contains(&format!("<h2>{section}</h2>")), "{section}");
    }
    let valid = s["valid"].as_u64().expect("valid cases");
    assert!(md.contains(&format!("reached by {valid} valid cases")), "{md}");
    assert!(md.contains("| in-tree | 1 | 1 |"), "findings by oracle: {md}");
    assert!(html.starts_with("<!DOCTYPE html>") && !html.contains("<script"), "self-contained, no script");
    assert!(html.contains(&format!("<a href=\"{link}\">{slug}</a>")), "{html}");

    // A second run into the same directory: the finding is known now.
    shard(&out, 300, 12, &[304]);
    let (code, _, err) = spvgraph(&["report", &out.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(md.contains("No new signature"), "{md}");
}

/// Copies the directory tree `from` to `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create copy");
    for item in std::fs::read_dir(from).expect("read tree").flatten() {
        let dest = to.join(item.file_name());
        if item.path().is_dir() {
            copy_tree(&item.path(), &dest);
        } else {
            std::fs::copy(item.path(), &dest).expect("copy file");
        }
    }
}

fn summary_of(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).expect("summary")).expect("JSON")
}

#[test]
fn a_night_merged_into_the_store_fails_only_on_signatures_the_store_lacks() {
    let d = scratch("known");
    let store = d.join("store");
    std::fs::create_dir_all(store.join("findings")).expect("empty store: the first night");
    let path = |p: &Path| p.display().to_string();

    // Night 1: one shard finds the planted panic; the store has nothing yet.
    shard(&d.join("n1"), 100, 10, &[103]);
    let (code, out, err) =
        spvgraph(&["findings", "merge", &path(&d.join("n1")), "--out", &path(&store), "--known", &path(&store)]);
    assert_eq!(code, 1, "a signature the store lacks fails the merge: {out}{err}");
    let (slug, _) = only_finding(&store);
    assert!(out.contains("1 new signature(s)") && out.contains(&slug), "{out}");
    let s = summary_of(&store);
    assert_eq!(s["findings"]["new_signatures"], 1, "{s}");
    assert_eq!(s["findings"]["list"][0]["status"], "new", "{s}");
    assert_eq!((s["cases"].clone(), s["merged"]["hunts"].clone()), (Value::from(10), Value::from(1)), "{s}");
    let (code, _, err) = spvgraph(&["report", &path(&store)]);
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(store.join("report.md")).expect("report.md");
    let new_part = md.split("## New since the last run").nth(1).and_then(|t| t.split("\n## ").next()).expect("section");
    assert!(new_part.contains(&slug), "the report lists it as new: {new_part}");

    // Night 2: two shards hunt into copies of the store (as the nightly
    // workflow's shards do) and meet the same bug again.
    for (name, seed, panic) in [("n2a", 110, 112), ("n2b", 120, 125)] {
        copy_tree(&store.join("findings"), &d.join(name).join("findings"));
        shard(&d.join(name), seed, 10, &[panic]);
    }
    let merge_night_2 = || {
        spvgraph(&[
            "findings",
            "merge",
            &path(&d.join("n2a")),
            &path(&d.join("n2b")),
            "--out",
            &path(&store),
            "--known",
            &path(&store),
        ])
    };
    let (code, out, err) = merge_night_2();
    assert_eq!(code, 0, "nothing new: {out}{err}");
    assert!(out.contains("0 new signature(s)"), "{out}");
    let (_, m) = only_finding(&store);
    // Night 1's occurrence once, though both shards' copies carry it, plus one per shard.
    assert_eq!(m["finding"]["occurrences"], 3, "{}", m["finding"]);
    assert_eq!(m["finding"]["occurrences_by_run"].as_object().map(|o| o.len()), Some(3), "{}", m["finding"]);
    assert_eq!(m["finding"]["seed"], 103, "the first night's case stays");
    let s = summary_of(&store);
    assert_eq!(s["findings"]["new_signatures"], 0, "{s}");
    assert_eq!(s["cases"], 20, "tonight's two shards, not the store's earlier nights: {s}");
    // Merging the same night again (a re-run of the merge job) counts nothing twice.
    let (code, _, err) = merge_night_2();
    assert_eq!(code, 0, "{err}");
    assert_eq!(only_finding(&store).1["finding"]["occurrences"], 3);

    let (code, _, err) = spvgraph(&[
        "findings",
        "merge",
        &path(&d.join("n1")),
        "--out",
        &path(&d.join("elsewhere")),
        "--known",
        &path(&d.join("no-such-store")),
    ]);
    assert_eq!(code, 2, "a missing store is an error, not 'everything is new': {err}");
}

//! `spvgraph hunt` survives `kill -9`: findings written before the kill
//! stay complete, `summary.json` is rebuilt from them, and `--resume`
//! continues from the first unfinished case, ending with the signatures an
//! uninterrupted hunt over the same seeds finds. Findings are planted with
//! the hidden `--inject-panic SEED` so they exist whatever the oracles say.

use serde_json::Value;
use spvgraph_testkit::{bin, scratch};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

const SEED: u64 = 7000;
/// Enough cases that the hunt is still running when `progress.json` is first
/// rewritten (after a second): a release build runs thousands a second.
const COUNT: u64 = if cfg!(debug_assertions) { 4000 } else { 40000 };

/// The hunt's arguments: in-tree oracles, findings planted every 97 seeds.
fn args(out: &Path) -> Vec<String> {
    let mut a: Vec<String> =
        ["hunt", "--count", &COUNT.to_string(), "--seed", &SEED.to_string()].into_iter().map(String::from).collect();
    a.extend(["--oracles", "in-tree", "--jobs", "2", "--no-reduce", "--quiet", "--json"].map(String::from));
    for s in (SEED + 5..SEED + COUNT).step_by(97) {
        a.extend(["--inject-panic".to_string(), s.to_string()]);
    }
    a.push("--out".into());
    a.push(out.display().to_string());
    a
}

fn hunt(args: &[String]) -> (i32, Value, String) {
    let out = bin!().args(args).output().expect("run spvgraph");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let summary = serde_json::from_str(&text).unwrap_or_else(|e| panic!("summary JSON ({e}): {text}\n{err}"));
    (out.status.code().unwrap_or(-1), summary, err)
}

fn progress(out: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(out.join("progress.json")).ok()?).ok()
}

fn signatures(summary: &Value) -> BTreeSet<String> {
    summary["findings"]["list"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["signature"].as_str().map(str::to_string))
        .collect()
}

/// Every finding directory is whole; returns their names.
fn complete_findings(out: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for item in std::fs::read_dir(out.join("findings")).expect("findings dir").flatten() {
        let name = item.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue; // a temporary directory the kill interrupted: never a finding
        }
        for ext in ["json", "spv", "md"] {
            assert!(item.path().join(format!("{name}.{ext}")).is_file(), "{name}.{ext} missing after the kill");
        }
        let m: Value =
            serde_json::from_str(&std::fs::read_to_string(item.path().join(format!("{name}.json"))).expect("manifest"))
                .expect("a whole manifest");
        assert!(m["finding"]["signature"].is_string(), "{m}");
        names.insert(name);
    }
    names
}

#[test]
fn a_killed_hunt_loses_nothing_and_resumes_where_it_stopped() {
    let d = scratch("kill");
    let killed = d.join("killed");
    let mut child =
        bin!().args(args(&killed)).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("start the hunt");
    // Kill it once a few hundred cases are done and a finding is on disk.
    let start = Instant::now();
    loop {
        assert!(child.try_wait().expect("poll").is_none(), "the hunt ended before it could be killed: raise COUNT");
        assert!(start.elapsed() < Duration::from_secs(300), "no progress after 300 s");
        let done = progress(&killed).and_then(|p| p["done_below"].as_u64()).unwrap_or(0);
        let any = std::fs::read_dir(killed.join("findings")).map(|l| l.count() > 0).unwrap_or(false);
        if done >= 300 && any {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("SIGKILL"); // Child::kill is SIGKILL on Unix
    let _ = child.wait();

    let before = complete_findings(&killed);
    assert!(!before.is_empty());
    let p = progress(&killed).expect("progress.json survives the kill");
    assert_eq!(p["finished"], false, "{p}");
    assert_eq!(p["seed"], SEED);
    let done = p["done_below"].as_u64().expect("done_below");
    assert!(done > 0 && done < COUNT, "{p}");

    // The summary, rebuilt from disk, lists every finding written before the kill, as new.
    let status = bin!().args(["findings", "summary"]).arg(&killed).output().expect("findings summary");
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let rebuilt: Value =
        serde_json::from_str(&std::fs::read_to_string(killed.join("summary.json")).expect("summary")).expect("JSON");
    assert_eq!(rebuilt["rebuilt"], true);
    assert_eq!(rebuilt["cases"], done);
    assert_eq!(rebuilt["findings"]["list"].as_array().map(Vec::len), Some(before.len()), "{rebuilt}");
    assert!(rebuilt["findings"]["list"].as_array().into_iter().flatten().all(|f| f["status"] == "new"), "{rebuilt}");

    // --resume: from the first unfinished case to the end, with no --count or --seed given.
    let resume_args: Vec<String> = args(&killed)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !(1..=4).contains(i))
        .map(|(_, a)| a)
        .chain(["--resume".to_string()])
        .collect();
    let (code, resumed, err) = hunt(&resume_args);
    assert_eq!(code, 1, "the planted signature is new to this (resumed) run: {err}");
    assert_eq!(resumed["first_index"], done, "{err}");
    assert_eq!(resumed["seeds"]["first"], SEED + done);
    assert_eq!(resumed["seeds"]["last"], SEED + COUNT - 1);
    assert_eq!(resumed["cases"], COUNT - done);
    let after = complete_findings(&killed);
    assert!(before.is_subset(&after), "findings of the killed part stay");
    let p = progress(&killed).expect("progress");
    assert_eq!((p["finished"].clone(), p["done_below"].clone()), (Value::Bool(true), Value::from(COUNT)), "{p}");
    assert!(
        std::fs::read_dir(killed.join("findings"))
            .expect("dir")
            .flatten()
            .all(|e| !e.file_name().to_string_lossy().starts_with('.')),
        "the resumed run cleared the killed run's temporary directories"
    );

    // The same signatures as one uninterrupted hunt over the same seeds,
    // with the same (smallest-seed) case kept for each.
    let whole = d.join("whole");
    let (code, uninterrupted, err) = hunt(&args(&whole));
    assert_eq!(code, 1, "{err}");
    assert_eq!(signatures(&resumed), signatures(&uninterrupted));
    assert_eq!(complete_findings(&whole), after);
    for slug in &after {
        let seed = |out: &Path| -> Value {
            let m: Value = serde_json::from_str(
                &std::fs::read_to_string(out.join("findings").join(slug).join(format!("{slug}.json")))
                    .expect("manifest"),
            )
            .expect("JSON");
            m["finding"]["seed"].clone()
        };
        assert_eq!(seed(&killed), seed(&whole), "{slug}: the smallest case is kept either way");
    }
}

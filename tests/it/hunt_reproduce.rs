//! A finding's printed reproduce command works as printed: run through
//! `sh -c` in the finding's directory inside this checkout (where a user
//! finds it after `spvgraph hunt`), it regenerates the case byte for byte,
//! and its check command runs (no "command not found").

use serde_json::Value;
use spvgraph_testkit::{bin, Scratch};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A scratch directory inside the checkout (`cargo run` must find the workspace from it).
fn scratch() -> Scratch {
    Scratch::inside(&Path::new(env!("CARGO_MANIFEST_DIR")).join("target"), "hunt-reproduce")
}

fn sh(line: &str, dir: &Path) -> (i32, String) {
    let out = Command::new("sh").arg("-c").arg(line).current_dir(dir).output().expect("run sh");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn the_printed_reproduce_command_regenerates_the_case() {
    let d = scratch();
    // A planted validator panic at seed 31 gives a finding whatever the oracles say.
    let out = bin!()
        .args(["hunt", "--count", "1", "--seed", "31", "--oracles", "in-tree", "--near-valid-ratio", "0"])
        .args(["--inject-panic", "31", "--no-reduce", "--quiet", "--json", "--out"])
        .arg(&d)
        .output()
        .expect("run spvgraph hunt");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: Value = serde_json::from_slice(&out.stdout).expect("summary JSON");
    let dir = PathBuf::from(summary["findings"]["list"][0]["dir"].as_str().expect("a finding"));
    let slug = dir.file_name().and_then(|n| n.to_str()).expect("slug").to_string();
    let m: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{slug}.json"))).expect("manifest"))
        .expect("manifest JSON");
    let f = &m["finding"];
    let line = f["reproduce"].as_str().expect("reproduce");
    assert!(!line.contains(env!("CARGO_MANIFEST_DIR")), "no machine path in a finding: {line}");
    let md = std::fs::read_to_string(dir.join(format!("{slug}.md"))).expect("note");
    assert!(md.contains(line), "the note prints the same command: {md}");

    let (code, text) = sh(line, &dir);
    assert_eq!(code, 0, "{line}: {text}");
    let again = std::fs::read(dir.join(f["reproduce_output"].as_str().expect("output"))).expect("regenerated");
    assert_eq!(again, std::fs::read(dir.join(format!("{slug}.spv"))).expect("module"), "{line}");

    // The check command (validate, for a validator's panic) runs too: 0
    // (the module is valid) or 1, never 127 (not found) or 2 (usage).
    let check = f["check"].as_str().expect("check");
    let (code, text) = sh(check, &dir);
    assert!(code == 0 || code == 1, "{check}: exit {code}: {text}");
}

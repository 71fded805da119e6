//! The release differential through the whole hunt: a second version of
//! model-converter (a user's build under a label, `--oracle-path
//! model-converter@mine=DIR`, here one that dies of SIGSEGV) runs on the same
//! cases as the release in the same batch; where it crashes and the release
//! converts, the finding is a `regression` naming both versions, in place of
//! the build's own `producer-crash`, and it is reduced like any other. A
//! disagreement documented as another oracle's discrepancy (spirv-val
//! rejecting the release's valid debug-info module) does not make the
//! release wrong.

use serde_json::Value;
use spvgraph_testkit::{bin, scratch};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

#[test]
fn a_newer_version_that_crashes_where_the_release_converts_is_a_regression() {
    if spvgraph_testkit::tool(spvgraph_oracle::tools::Tool::ModelConverter).is_none() {
        return;
    }
    let mine = scratch("build");
    let exe = mine.join("model-converter");
    std::fs::write(&exe, "#!/bin/sh\nkill -SEGV $$\n").expect("write");
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let out_dir = scratch("hunt");
    let out = bin!()
        .args(["hunt", "--count", "2", "--seed", "7", "--near-valid-ratio", "0"])
        // spirv-val 2025.5 rejects the release's debug-info output (documented as
        // spirv-val's discrepancy, not the converter's): the release is still right.
        .args(["--oracles", "in-tree,spirv-val,model-converter,model-converter@mine"])
        .arg(format!("--oracle-path=model-converter@mine={}", mine.display()))
        .args(["--sample", "model-converter=1", "--reduce-time", "5", "--quiet", "--json", "--out"])
        .arg(&out_dir)
        .output()
        .expect("run spvgraph hunt");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let summary: Value = serde_json::from_slice(&out.stdout).expect("summary JSON");
    let list = summary["findings"]["list"].as_array().expect("findings");
    let kinds: Vec<&str> = list.iter().filter_map(|f| f["kind"].as_str()).collect();
    assert!(kinds.contains(&"regression"), "{summary:#}");
    assert!(!kinds.contains(&"producer-crash"), "the regression takes the crash's place: {kinds:?}");
    let f = list.iter().find(|f| f["kind"] == "regression").expect("regression");
    let dir = Path::new(f["dir"].as_str().expect("dir"));
    let slug = dir.file_name().and_then(|n| n.to_str()).expect("slug");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{slug}.json"))).expect("manifest"))
            .expect("JSON");
    let finding = &manifest["finding"];
    assert_eq!(finding["oracles"], serde_json::json!(["model-converter@mine", "model-converter"]), "{finding:#}");
    let answers = finding["answers"].as_object().expect("answers");
    assert!(answers.contains_key("model-converter") && answers.contains_key("model-converter@mine"), "{answers:?}");
    assert!(manifest.get("reduction").is_some() || finding.get("reduction").is_some(), "reduced: {manifest:#}");
    let note = std::fs::read_to_string(dir.join(format!("{slug}.md"))).expect("note");
    assert!(note.contains("ai-ml-sdk-model-converter"), "the release's version: {note}");
    assert!(note.contains(&mine.display().to_string()) || note.contains("model-converter@mine"), "{note}");
    // The channel instance keeps its owner and its standalone reproducer:
    // the report names the project and the reproducer needs only its tools.
    let report = std::fs::read_to_string(dir.join("UPSTREAM.md")).expect("UPSTREAM.md");
    let whose = report.split("## Whose bug").nth(1).and_then(|s| s.split("\n## ").next()).expect("whose bug");
    assert!(!whose.contains("Not decided"), "the owner is lost on the channel instance: {report}");
    assert!(whose.contains("ML SDK Model Converter") || whose.contains("upstream MLIR"), "{whose}");
    let repro = report.split("## Reproduce").nth(1).expect("a reproduce section");
    assert!(repro.contains("With model-converter"), "no standalone reproducer: {report}");
    assert!(!repro.contains("No standalone reproducer"), "{report}");
    let files = std::fs::read_dir(dir.join("upstream")).expect("upstream/").count();
    assert!(files > 0, "the reproducer's files are in upstream/");
}

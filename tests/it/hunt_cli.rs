//! The `spvgraph hunt` contract: the summary's counts, the finding files and
//! their reproduce command, the missing-tool policy, and exit status (0 no
//! new finding, 1 new findings, 2 usage or I/O error). Nothing here depends
//! on timing: runs are bounded by `--count`, and findings are planted with
//! the hidden `--inject-panic SEED` so they exist whatever the oracles say.

use serde_json::Value;
use spvgraph_testkit::{bin, scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output { status, stdout, stderr } = cmd.output().expect("run spvgraph");
    (status.code().unwrap_or(-1), String::from_utf8_lossy(&stdout).into(), String::from_utf8_lossy(&stderr).into())
}

/// Runs `hunt ARGS --neighbours 0 --quiet --json --out DIR` (the counts these
/// tests check are the hunt's own cases; `hunt_neighbours` tests the
/// mutants); returns the exit code and the summary.
fn hunt(dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let (code, out, err) =
        run(bin!().arg("hunt").args(args).args(["--neighbours", "0", "--quiet", "--json", "--out"]).arg(dir));
    let summary: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("summary is JSON ({e}): {out}\n{err}"));
    (code, summary, err)
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// The parts of a summary that do not depend on timing or thread count.
fn counts(s: &Value) -> Value {
    let mut s = s.clone();
    for key in ["elapsed_s", "cases_per_s", "jobs", "run"] {
        s[key] = Value::Null;
    }
    for o in s["oracles"].as_object_mut().into_iter().flat_map(|m| m.values_mut()) {
        o["busy_s"] = Value::Null;
        o["cases_per_busy_s"] = Value::Null;
    }
    s
}

fn spirv_val_available() -> bool {
    let ok = spvgraph_oracle::tools::Tools::discover().get(spvgraph_oracle::tools::Tool::SpirvVal).is_ok();
    if !ok {
        assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and spirv-val is unavailable");
        eprintln!("skipping the spirv-val part: spirv-val unavailable");
    }
    ok
}

#[test]
fn a_count_run_summarises_every_case() {
    let d = scratch("counts");
    let (code, s, err) = hunt(&d.join("a"), &["--count", "40", "--seed", "500", "--jobs", "2", "--oracles", "in-tree"]);
    assert!(code == 0 || code == 1, "{err}");
    assert_eq!(code == 1, u(&s["findings"]["new_signatures"]) > 0, "exit 1 iff new findings: {s}");
    assert_eq!(u(&s["cases"]), 40);
    assert_eq!(s["seeds"]["first"], 500);
    assert_eq!(s["seeds"]["last"], 539);
    let (valid, near, unavailable) = (u(&s["valid"]), u(&s["near_valid"]), u(&s["near_valid_unavailable"]));
    assert_eq!(valid + near + unavailable, 40, "{s}");
    assert!(valid > 0 && near > 0, "a 0.5 ratio over 40 seeds gives both kinds: {s}");
    let it = &s["oracles"]["in-tree"];
    let answers = |o: &Value, k: &str| o["answers"][k].as_u64().unwrap_or(0);
    assert_eq!(answers(it, "accept") + answers(it, "reject"), valid + near, "{s}");
    assert_eq!(u(&it["cases"]), valid + near, "{s}");
    assert!(s["oracles"]["spirv-val"].is_null(), "--oracles in-tree: {s}");
    let rt = &s["roundtrip"];
    assert_eq!(u(&rt["identical"]) + u(&rt["differs"]) + u(&rt["undecodable"]) + u(&rt["not_run"]), valid + near);
    // The summary is also written to OUT/summary.json.
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("a/summary.json")).expect("summary.json")).expect("JSON");
    assert_eq!(file, s);
    // Cases depend on their seed only: one job gives the same counts.
    let (_, again, err) =
        hunt(&d.join("b"), &["--count", "40", "--seed", "500", "--jobs", "1", "--oracles", "in-tree"]);
    assert_eq!(counts(&again)["cases"], 40, "{err}");
    let strip_dirs = |v: &Value| {
        let mut v = counts(v);
        v["findings"]["dir"] = Value::Null;
        for f in v["findings"]["list"].as_array_mut().into_iter().flatten() {
            f["dir"] = Value::Null;
        }
        v
    };
    assert_eq!(strip_dirs(&again), strip_dirs(&s));
    // The ratio decides the kind of every case.
    let (_, all_valid, _) = hunt(&d.join("c"), &["--count", "12", "--near-valid-ratio", "0", "--oracles", "in-tree"]);
    assert_eq!((u(&all_valid["valid"]), u(&all_valid["near_valid"])), (12, 0), "{all_valid}");
    let (_, all_near, _) = hunt(&d.join("d"), &["--count", "12", "--near-valid-ratio", "1", "--oracles", "in-tree"]);
    assert_eq!(u(&all_near["valid"]), 0, "{all_near}");
    assert_eq!(u(&all_near["near_valid"]) + u(&all_near["near_valid_unavailable"]), 12, "{all_near}");
}

#[test]
fn spirv_val_runs_on_every_module_when_available() {
    if !spirv_val_available() {
        return;
    }
    let d = scratch("spirv-val");
    let (code, s, err) = hunt(&d, &["--count", "30", "--seed", "70", "--oracles", "in-tree,spirv-val"]);
    assert!(code == 0 || code == 1, "{err}");
    let modules = u(&s["valid"]) + u(&s["near_valid"]);
    let sv = &s["oracles"]["spirv-val"];
    assert_eq!(u(&sv["cases"]), modules, "{s}");
    assert!(sv["version"].as_str().is_some_and(|v| v.contains("SPIRV-Tools")), "the version that ran: {s}");
}

#[test]
fn a_missing_spirv_val_is_reported_and_fails_under_ci() {
    let d = scratch("missing");
    let missing = |cmd: &mut Command| {
        cmd.env("SPVGRAPH_TOOL_SPIRV_VAL", "/nonexistent/spirv-val")
            .env("SPVGRAPH_TOOL_LIBSPIRV_TOOLS_SHARED", "/nonexistent/libSPIRV-Tools-shared.so");
    };
    // By default, a missing oracle is left out with a note, and listed in the summary.
    let mut cmd = bin!();
    cmd.args(["hunt", "--count", "3", "--quiet", "--out"]).arg(&d).env("CI", "false");
    missing(&mut cmd);
    let (code, out, err) = run(&mut cmd);
    assert!(code == 0 || code == 1, "{err}");
    assert!(err.contains("spirv-val is not available"), "{err}");
    assert!(out.contains("spirv-val") && out.contains("not run"), "{out}");
    // Under CI=true every oracle is mandatory.
    let mut cmd = bin!();
    cmd.args(["hunt", "--count", "3", "--quiet", "--out"]).arg(&d).env("CI", "true");
    missing(&mut cmd);
    let (code, _, err) = run(&mut cmd);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("CI=true"), "{err}");
    // An oracle named on the command line must be available.
    let mut cmd = bin!();
    cmd.args(["hunt", "--count", "3", "--quiet", "--oracles", "in-tree,spirv-val", "--out"]).arg(&d).env("CI", "false");
    missing(&mut cmd);
    let (code, _, err) = run(&mut cmd);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("spirv-val"), "{err}");
}

/// The one finding of `summary` with `kind`.
fn finding_dir(summary: &Value, kind: &str) -> PathBuf {
    let list = summary["findings"]["list"].as_array().expect("finding list");
    let f = list.iter().find(|f| f["kind"] == kind).unwrap_or_else(|| panic!("no {kind} finding: {summary}"));
    PathBuf::from(f["dir"].as_str().expect("dir"))
}

/// Checks the files and fields of a finding and runs its reproduce command.
fn check_finding(dir: &Path, seed: u64, case: &str, occurrences: u64) -> Value {
    let slug = dir.file_name().and_then(|n| n.to_str()).expect("slug").to_string();
    let text = std::fs::read_to_string(dir.join(format!("{slug}.json"))).expect("manifest");
    let m: Value = serde_json::from_str(&text).expect("manifest is JSON");
    let f = &m["finding"];
    assert_eq!(f["slug"], slug.as_str());
    assert_eq!(f["kind"], "panic");
    assert_eq!(f["seed"], seed, "the smallest case is kept: {f}");
    assert_eq!(m["seed"], seed);
    assert_eq!(f["case"], case);
    assert_eq!(f["occurrences"], occurrences, "{f}");
    for key in ["signature", "detail", "reproduce", "reproduce_output", "check", "target_env", "severity"] {
        assert!(f[key].as_str().is_some_and(|s| !s.is_empty()), "{key}: {f}");
    }
    assert_eq!(f["oracles"], serde_json::json!(["in-tree"]), "the validator that panicked: {f}");
    assert!(f["discriminator"].as_str().unwrap_or("").starts_with("validator at "), "{f}");
    for key in ["expected", "roundtrip"] {
        assert!(f[key].is_object(), "{key}: {f}");
    }
    if case == "near-valid" {
        assert!(f["rule"].is_null(), "a panic has no rule: {f}");
        assert!(f["mutator"].as_str().is_some() && f["note"].as_str().is_some(), "{f}");
        assert_eq!(f["expected"]["valid"], false);
        assert_eq!(m["expect"], f["expected"]["rule"]);
        assert!(m["near_valid"]["mutator"].is_string(), "{m}");
    } else {
        assert_eq!(m["expect"], "valid");
        assert_eq!(f["expected"]["valid"], true);
        assert_eq!(f["roundtrip"]["identical"], true, "{f}");
    }
    // The kept case is the smallest of the example seeds.
    assert_eq!(f["example_seeds"][0], seed, "{f}");
    for ext in ["spv", "spvasm", "md"] {
        assert!(dir.join(format!("{slug}.{ext}")).is_file(), "{slug}.{ext}");
    }
    let md = std::fs::read_to_string(dir.join(format!("{slug}.md"))).expect("note");
    assert!(md.contains(f["reproduce"].as_str().unwrap_or("?")), "{md}");
    // The reproduce command, run in the finding's directory, writes the same module.
    let argv: Vec<&str> =
        f["reproduce_argv"].as_array().expect("argv").iter().map(|a| a.as_str().expect("string")).collect();
    // `cargo run ... --` then the subcommand: run the built binary with the same arguments
    // (`the_printed_reproduce_command_works` runs the printed line itself).
    let prefix = spvgraph::hunt::reproduce_command::RUN;
    assert_eq!(argv[..prefix.len()], prefix, "{argv:?}");
    assert_eq!(argv[prefix.len()], "generate");
    let (code, _, err) = run(bin!().args(&argv[prefix.len()..]).current_dir(dir));
    assert_eq!(code, 0, "{argv:?}: {err}");
    let again = std::fs::read(dir.join(f["reproduce_output"].as_str().expect("output"))).expect("regenerated");
    // A reduced finding keeps the case as found as STEM.orig.*; that is what the seed gives.
    let found = if m["reduction"].is_object() { format!("{slug}.orig.spv") } else { format!("{slug}.spv") };
    assert_eq!(again, std::fs::read(dir.join(found)).expect("module"), "{argv:?}");
    m
}

fn slug_of(dir: &Path) -> String {
    dir.file_name().and_then(|n| n.to_str()).expect("slug").to_string()
}

fn manifest(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join(format!("{}.json", slug_of(dir)))).expect("manifest");
    serde_json::from_str(&text).expect("manifest is JSON")
}

fn file(dir: &Path, suffix: &str) -> Vec<u8> {
    let p = dir.join(format!("{}{suffix}", slug_of(dir)));
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn findings_are_written_reduced_next_to_the_original() {
    let d = scratch("reduced");
    // A planted validator panic: it recurs whenever the case with seed 900
    // is judged again, so the reducer may shrink the case to almost nothing.
    let args = [
        "--count",
        "1",
        "--seed",
        "900",
        "--oracles",
        "in-tree",
        "--near-valid-ratio",
        "0",
        "--jobs",
        "1",
        "--inject-panic",
        "900",
        "--reduce-time",
        "60",
    ];
    let (code, s, err) = hunt(&d.join("on"), &args);
    assert_eq!(code, 1, "{err}");
    let on = finding_dir(&s, "panic");
    let m = check_finding(&on, 900, "valid", 1);
    let r = &m["reduction"];
    let (orig, reduced) = (file(&on, ".orig.spv"), file(&on, ".spv"));
    assert!(reduced.len() * 2 < orig.len(), "{} B from {} B: {r}", reduced.len(), orig.len());
    assert_eq!(u(&r["bytes"]["reduced"]), reduced.len() as u64, "{r}");
    assert_eq!(u(&r["bytes"]["original"]), orig.len() as u64, "{r}");
    assert!(u(&r["predicate_calls"]) > 0, "{r}");
    assert_eq!(r["original"], format!("{}.orig.spv", slug_of(&on)));
    // The manifest names the reduced case's files, every one of which exists.
    assert_eq!(m["spv"], format!("{}.spv", slug_of(&on)));
    for rec in m["inputs"].as_array().expect("inputs") {
        assert!(on.join(rec["file"].as_str().expect("file")).is_file(), "{rec}");
    }
    for suffix in [".orig.json", ".orig.spvasm", ".spvasm"] {
        file(&on, suffix);
    }
    // Candidates stay valid: the reduced module of a valid case validates.
    let (code, _, err) = run(bin!().arg("validate").arg(on.join(format!("{}.spv", slug_of(&on)))));
    assert_eq!(code, 0, "{err}");

    // The report says how far each finding was reduced.
    let report = |dir: &Path| {
        let (code, _, err) = run(bin!().arg("report").arg(dir));
        assert_eq!(code, 0, "{err}");
        std::fs::read_to_string(dir.join("report.md")).expect("report.md")
    };
    let nodes = format!("{} nodes (from {})", u(&r["nodes"]["reduced"]), u(&r["nodes"]["original"]));
    assert!(report(&d.join("on")).contains(&nodes), "{nodes}");

    // --no-reduce writes the case as found, and no original beside it.
    let (code, s, err) = hunt(&d.join("off"), &[&args[..], &["--no-reduce"]].concat());
    assert_eq!(code, 1, "{err}");
    assert!(report(&d.join("off")).contains("as found (not reduced)"));
    let off = finding_dir(&s, "panic");
    assert!(manifest(&off)["reduction"].is_null());
    assert!(!off.join(format!("{}.orig.spv", slug_of(&off))).exists());
    let as_found = file(&off, ".spv");
    assert_eq!(as_found, orig, "the kept original is the case as found");

    // `reduce --finding` judges the stored case again: without the planted
    // panic the signature does not appear, so nothing changes (exit 1)...
    let finding = |extra: &[&str]| {
        run(bin!().args(["reduce", "--quiet", "--jobs", "1", "--time-limit", "60", "--finding"]).arg(&off).args(extra))
    };
    let (code, _, err) = finding(&[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(file(&off, ".spv"), as_found);
    // ...with it, the finding is reduced in place and the original kept.
    let (code, _, err) = finding(&["--inject-panic", "900"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(file(&off, ".orig.spv"), as_found);
    let again = file(&off, ".spv");
    assert!(again.len() * 2 < as_found.len(), "{} B from {} B", again.len(), as_found.len());
    let m = manifest(&off);
    assert_eq!(u(&m["reduction"]["bytes"]["reduced"]), again.len() as u64, "{m}");
    assert_eq!(m["finding"]["signature"], manifest(&on)["finding"]["signature"]);
    // Re-reducing a reduced finding keeps the first original.
    let (code, _, err) = finding(&["--inject-panic", "900"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(file(&off, ".orig.spv"), as_found);
    assert_eq!(u(&manifest(&off)["reduction"]["bytes"]["original"]), as_found.len() as u64);
}

#[test]
fn findings_are_complete_deduplicated_and_reproducible() {
    let d = scratch("findings");
    let seeds: Vec<String> = (900..910).map(|s| s.to_string()).collect();
    let mut args = vec!["--count", "10", "--seed", "900", "--oracles", "in-tree", "--near-valid-ratio", "0"];
    for s in &seeds {
        args.extend(["--inject-panic", s.as_str()]);
    }
    // Valid cases: all ten panic alike, so one finding, the smallest seed, counted ten times.
    let (code, s, err) = hunt(&d.join("valid"), &args);
    assert_eq!(code, 1, "new findings exit 1: {err}");
    let k = &s["findings"]["by_kind"]["panic"];
    assert_eq!((u(&k["occurrences"]), u(&k["signatures"]), u(&k["new"])), (10, 1, 1), "{s}");
    let m = check_finding(&finding_dir(&s, "panic"), 900, "valid", 10);
    assert_eq!(m["finding"]["example_seeds"].as_array().map(Vec::len), Some(10));
    // A second run into the same directory: the signature is known, so exit 0.
    let (code, s2, err) = hunt(&d.join("valid"), &args);
    assert_eq!(code, 0, "known findings only: {err}");
    assert_eq!(u(&s2["findings"]["by_kind"]["panic"]["new"]), 0, "{s2}");
    check_finding(&finding_dir(&s2, "panic"), 900, "valid", 20);
    // Near-valid cases keep their rule in the reproduce command.
    args[7] = "1";
    let (code, s, err) = hunt(&d.join("near"), &args);
    assert_eq!(code, 1, "{err}");
    let made = u(&s["near_valid"]);
    assert!(made > 0, "{s}");
    let dir = finding_dir(&s, "panic");
    let slug = dir.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
    let text = std::fs::read_to_string(dir.join(format!("{slug}.json"))).expect("manifest");
    let first = u(&serde_json::from_str::<Value>(&text).expect("JSON")["finding"]["example_seeds"][0]);
    let m = check_finding(&dir, first, "near-valid", made);
    let argv = m["finding"]["reproduce"].as_str().unwrap_or("");
    assert!(argv.contains(&format!("--near-valid --rule {}", m["expect"].as_str().unwrap_or("?"))), "{argv}");
}

#[test]
fn a_time_bounded_run_stops_and_summarises() {
    let d = scratch("time");
    let (code, s, err) = hunt(&d, &["--time", "1", "--oracles", "in-tree", "--jobs", "1"]);
    assert!(code == 0 || code == 1, "{err}");
    let cases = u(&s["cases"]);
    assert_eq!(u(&s["valid"]) + u(&s["near_valid"]) + u(&s["near_valid_unavailable"]), cases, "{s}");
    if cases > 0 {
        assert_eq!(u(&s["seeds"]["last"]), cases - 1, "cases are seeds 0..cases, none skipped: {s}");
    }
}

#[test]
fn bad_arguments_exit_2_with_a_clear_error() {
    let d = scratch("usage");
    for (args, says) in [
        (vec!["hunt"], "--time"),
        (vec!["hunt", "--count", "5", "--time", "10"], "cannot be used with"),
        (vec!["hunt", "--count", "0"], "--count"),
        (vec!["hunt", "--count", "5", "--near-valid-ratio", "1.5"], "from 0 to 1"),
        (vec!["hunt", "--time", "5x"], "unknown unit"),
        (vec!["hunt", "--count", "5", "--jobs", "0"], "--jobs"),
        (vec!["hunt", "--count", "5", "--rule", "no.such.rule"], "no.such.rule"),
        (vec!["hunt", "--count", "5", "--config", "/nonexistent/c.json"], "/nonexistent/c.json"),
    ] {
        let (code, out, err) = run(bin!().args(&args).arg("--out").arg(&d));
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?} should say {says:?}: {err}");
    }
    // generate's near-valid flags are checked too.
    let (code, _, err) = run(bin!().args(["generate", "--rule", "tosa.shape.output", "-o"]).arg(&d));
    assert_eq!(code, 2, "--rule needs --near-valid: {err}");
    let (code, _, err) = run(bin!().args(["generate", "--near-valid", "--rule", "level.tensor-size", "-o"]).arg(&d));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("may-accept"), "{err}");
}

#[test]
fn generate_near_valid_records_the_rule_in_the_manifest() {
    let d = scratch("gen-near");
    let (code, out, err) = run(bin!()
        .args(["generate", "--near-valid", "--rule", "layout.memory-model", "--seed", "3", "--count", "3", "--spvasm"])
        .arg("-o")
        .arg(&d));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("generated 3 near-valid case(s), seeds 3..=5"), "{out}");
    for seed in 3..6 {
        let text = std::fs::read_to_string(d.join(format!("case_{seed}.json"))).expect("manifest");
        let m: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(m["expect"], "layout.memory-model", "{m}");
        assert_eq!(m["seed"], seed);
        assert_eq!(m["near_valid"]["rule"], "layout.memory-model");
        assert!(m["near_valid"]["mutator"].is_string() && m["near_valid"]["target_env"].is_string(), "{m}");
        assert!(d.join(format!("case_{seed}.spvasm")).is_file());
        // The in-tree validator names exactly that rule.
        let (code, _, err) = run(bin!().args(["validate"]).arg(d.join(format!("case_{seed}.spv"))));
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("[layout.memory-model]"), "{err}");
    }
}

/// Every oracle-error is a harness bug (a request that does not fit the
/// module, a module with no TOSA form handed to a translating backend):
/// a fixed-seed hunt through every available oracle, near-valid cases sent
/// to consumers too (`--strict-consumers`), has none; nor has a hunt of the
/// near-valid modules that reuse a GraphConstantID with another type, all
/// sent to the emulation layer (they gave "the request does not fit its
/// module" errors).
#[test]
fn a_fixed_seed_hunt_through_every_oracle_has_no_oracle_error() {
    let no_errors = |s: &Value| {
        let list: Vec<&Value> =
            s["findings"]["list"].as_array().into_iter().flatten().filter(|f| f["kind"] == "oracle-error").collect();
        assert!(s["findings"]["by_kind"]["oracle-error"].is_null(), "oracle errors: {list:#?}");
    };
    let d = scratch("no-oracle-error");
    let (code, s, err) = hunt(&d.join("all"), &["--count", "600", "--seed", "0", "--strict-consumers", "--no-reduce"]);
    assert!(code == 0 || code == 1, "{err}");
    assert_eq!(u(&s["cases"]), 600, "{err}");
    if !s["unavailable_oracles"].as_array().is_some_and(|a| a.is_empty()) {
        eprintln!("some oracles are unavailable here: {}", s["unavailable_oracles"]);
    }
    no_errors(&s);
    let layer = spvgraph_oracle::registry::build("emulation-layer", &Default::default()).expect("a registry name");
    if layer.available().is_err() {
        assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and the emulation layer is unavailable");
        return;
    }
    let args = [
        "--count",
        "60",
        "--seed",
        "0",
        "--oracles",
        "in-tree,emulation-layer",
        "--sample",
        "emulation-layer=1",
        "--rule",
        "constants.graph-constant.duplicate-id",
        "--near-valid-ratio",
        "1",
        "--strict-consumers",
        "--no-reduce",
    ];
    let (code, s, err) = hunt(&d.join("reused-ids"), &args);
    assert!(code == 0 || code == 1, "{err}");
    assert_eq!(u(&s["oracles"]["emulation-layer"]["cases"]), 60, "{s}");
    no_errors(&s);
}

/// The recall self-check: with `--ignore-documented`, every documented
/// discrepancy a plain hunt matched comes back as a new finding that names
/// the documented finding it recalls, and the summary lists it as found
/// again (and when).
#[test]
fn ignore_documented_turns_documented_findings_into_recalled_new_ones() {
    if !spirv_val_available() {
        return;
    }
    let d = scratch("recall");
    let args = ["--count", "300", "--seed", "0", "--oracles", "in-tree,spirv-val", "--no-reduce", "--jobs", "2"];
    let (code, plain, err) = hunt(&d.join("plain"), &args);
    assert!(code == 0 || code == 1, "{err}");
    let list = |s: &Value, status: &str| -> Vec<String> {
        let all = s["findings"]["list"].as_array().cloned().unwrap_or_default();
        all.iter().filter(|f| f["status"] == status).filter_map(|f| f["signature"].as_str().map(String::from)).collect()
    };
    let documented = list(&plain, "documented");
    assert!(!documented.is_empty(), "these seeds should meet a documented spirv-val discrepancy: {plain}");
    assert!(plain["recall"].is_null(), "no recall list without --ignore-documented");

    let (code, again, err) = hunt(&d.join("ignoring"), &[&args[..], &["--ignore-documented"]].concat());
    assert_eq!(code, 1, "recalled findings are new: {err}");
    assert!(list(&again, "documented").is_empty(), "{again}");
    let new = list(&again, "new");
    let recall = again["recall"].as_array().cloned().unwrap_or_default();
    for key in &documented {
        assert!(new.contains(key), "{key} should be new now");
        let row = recall.iter().find(|r| r["found_as"].as_array().is_some_and(|f| f.iter().any(|x| x == key)));
        let row = row.unwrap_or_else(|| panic!("{key} is in no recall row: {recall:#?}"));
        assert!(row["first_after_seconds"].is_number(), "{row}");
        assert!(row["finding"].as_str().is_some_and(|f| f.starts_with("corpus/findings/")), "{row}");
    }
    // Rows nobody met are listed as not found, so the list is the recall.
    assert!(recall.iter().any(|r| r["found_as"].as_array().is_some_and(|f| f.is_empty())), "{recall:#?}");
}

/// A finding whose near-valid module does not decode (a string that is not
/// UTF-8) still gets its `UPSTREAM.md`, and the hunt does not fail on it
/// (a 10-minute ci/hunt exited 2 here: the report writer could not read the
/// module back).
#[test]
fn a_finding_whose_module_does_not_decode_gets_its_upstream_report() {
    if !spirv_val_available() {
        return;
    }
    let d = scratch("undecodable");
    let args = [
        "--count",
        "1",
        "--seed",
        "1355",
        "--near-valid-ratio",
        "1",
        "--rule",
        "binary.operands",
        "--oracles",
        "in-tree,spirv-val",
    ];
    let (code, s, err) = hunt(&d, &args);
    assert!(code == 0 || code == 1, "the hunt must not fail: {err}");
    let list = s["findings"]["list"].as_array().cloned().unwrap_or_default();
    let f = list.iter().find(|f| f["kind"] == "misses-rule").unwrap_or_else(|| panic!("{s}"));
    let dir = PathBuf::from(f["dir"].as_str().expect("dir"));
    let slug = slug_of(&dir);
    let bytes = std::fs::read(dir.join(format!("{slug}.spv"))).expect("the module as found");
    assert!(spvgraph_ir::Module::decode_bytes(&bytes).is_err(), "this case's module should not decode");
    let report = std::fs::read_to_string(dir.join("UPSTREAM.md")).expect("UPSTREAM.md");
    assert!(report.contains("does not decode"), "{report}");
}

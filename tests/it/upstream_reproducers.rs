//! Every corpus finding names the project that owns its bug and carries a
//! reproducer that needs only that project's own tools (`upstream` in
//! `corpus/findings/STEM.json`, quoted in `STEM.md`), a located cause (or
//! what was tried to locate it) and an issue draft, `STEM.ISSUE.md`. This
//! test runs each reproducer as written (`upstream.reproduce`, and
//! `reproduce_mlir`, `reproduce_api` and `fixed_behind` where present),
//! against the real tools of `.oracles`, through the library's runner
//! (`spvgraph::corpus::reproduce`, which `spvgraph findings status` uses
//! too), and checks that it still shows what the finding says (a status, a
//! message, output values, a file); a finding fixed upstream says in which
//! release, and still reproduces with the pinned one.

use serde_json::Value;
use spvgraph::corpus::reproduce::{self, Finding, RunError, Toolset};
use spvgraph_oracle::attribution::{Owner, Status};
use spvgraph_oracle::external::spirv_val::known;
use spvgraph_oracle::registry::{self, OracleConfig};
use spvgraph_oracle::tools::Tools;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn findings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/findings")
}

/// Every finding's stem and manifest.
fn manifests() -> Vec<Finding> {
    reproduce::findings(&findings_dir()).unwrap_or_else(|e| panic!("{e}"))
}

/// The status names of [`Status`] (its data-free form).
fn status_name(s: &str) -> Option<&'static str> {
    [Status::Open, Status::Fixed { version: "" }, Status::SpecAmbiguity, Status::NotABug]
        .into_iter()
        .map(Status::name)
        .find(|n| *n == s)
}

#[test]
fn every_finding_names_its_owner_and_status_and_agrees_with_the_tables() {
    let oracles = registry::build_all(&OracleConfig::default());
    let rows: Vec<_> =
        oracles.iter().flat_map(|o| o.known_discrepancies().iter()).chain(known::SPIRV_VAL_MAIN_KNOWN).collect();
    let all = manifests();
    assert!(all.len() >= 30, "only {} findings", all.len());
    for Finding { stem, manifest: m } in &all {
        let up = &m["upstream"];
        let owner = up["owner"].as_str().and_then(Owner::from_name).unwrap_or_else(|| panic!("{stem}: no owner"));
        let status = up["status"].as_str().and_then(status_name).unwrap_or_else(|| panic!("{stem}: no status"));
        if status == "fixed" {
            assert!(up["fixed_in"].as_str().is_some_and(|v| v.chars().any(|c| c.is_ascii_digit())), "{stem}");
        }
        assert!(up["evidence"].as_array().is_some_and(|e| !e.is_empty()), "{stem}: no evidence");
        assert!(up["reproduce"]["commands"].as_array().is_some_and(|c| !c.is_empty()), "{stem}: no reproducer");
        let md = std::fs::read_to_string(findings_dir().join(format!("{stem}.md"))).expect("note");
        assert!(
            md.contains(&format!("**Belongs to:** {}", project_in_note(owner))),
            "{stem}: the note names another owner"
        );
        let file = format!("corpus/findings/{stem}.spv");
        for k in rows.iter().filter(|k| k.finding == file) {
            assert_eq!(k.owner, owner, "{stem}: the table row ({}) names another owner", k.kind);
            assert_eq!(k.status.name(), status, "{stem}: the table row ({}) has another status", k.kind);
        }
    }
}

/// How a note spells the owner (the SPIR-V registry is named by its text).
fn project_in_note(o: Owner) -> &'static str {
    match o {
        Owner::SpirvRegistry => "the SPIR-V registry (the SPV_ARM_graph text)",
        other => other.project(),
    }
}

/// The reproducer of a finding's manifest (`upstream.reproduce`) as
/// [`every_reproducer_still_shows_its_bug_with_the_pinned_tools`] runs and
/// checks it. `Err` says what is missing. `corpus_findings` counts a finding
/// as checked when this holds, so the two agree on what a checked finding is.
pub fn checked_reproducer(manifest: &Value) -> Result<&Value, String> {
    let reproduce = &manifest["upstream"]["reproduce"];
    reproduce::checked(reproduce).map_err(|e| format!("upstream.reproduce: {e}"))?;
    Ok(reproduce)
}

#[test]
fn every_reproducer_still_shows_its_bug_with_the_pinned_tools() {
    let release = Toolset::release(Tools::discover());
    let dir = findings_dir();
    let mut ran = BTreeMap::<&str, usize>::new();
    for f in manifests() {
        let mut list = f.reproducers();
        if let Some((_, r)) = f.fixed_behind() {
            list.push((reproduce::FIXED_BEHIND, r));
        }
        assert!(list.first().is_some_and(|(k, _)| *k == "reproduce"), "{}: no upstream.reproduce", f.stem);
        for (kind, r) in list {
            let what = format!("{} ({kind})", f.stem);
            reproduce::checked(r).unwrap_or_else(|e| panic!("{what}: {e}"));
            let done = match reproduce::run(&dir, &f.stem, r, &release) {
                Ok(done) => done,
                Err(e @ RunError::Missing { .. }) if !Tools::required() => {
                    eprintln!("skipping {what}: {e}");
                    continue;
                }
                Err(e) => panic!("{what}: {e}"),
            };
            if let Err(why) = reproduce::shows(&r["shows"], &done) {
                panic!("{what} no longer shows what the finding says: {why}\n{}", done.output);
            }
            // A reproducer that is also another kind (the C program that is
            // both `reproduce` and `reproduce_api`) ran for each kind it is.
            for k in reproduce::KINDS.iter().copied().chain([reproduce::FIXED_BEHIND]) {
                if k == kind || f.manifest["upstream"][k] == *r {
                    *ran.entry(k).or_default() += 1;
                }
            }
        }
    }
    eprintln!("reproducers run, by kind: {ran:?}");
    if Tools::required() {
        for kind in ["reproduce", "reproduce_mlir", "reproduce_api", reproduce::FIXED_BEHIND] {
            assert!(ran.get(kind).is_some_and(|n| *n > 0), "CI=true and no {kind} ran");
        }
    }
}

/// What a finding's `upstream.cause` must hold: where the bug is (`repo`
/// owner/name, a 40-digit `commit`, `path`, `line` or `lines` `A-B`, a
/// `summary`), or, not located, what was `tried`.
fn cause_shape(cause: &Value) -> Result<(), String> {
    let text = |k: &str| cause[k].as_str().filter(|s| !s.trim().is_empty()).ok_or(format!("no {k}"));
    match cause["located"].as_bool() {
        Some(true) => {
            let repo = text("repo")?;
            let parts: Vec<&str> = repo.split('/').collect();
            if parts.len() != 2 || parts.iter().any(|p| p.is_empty()) {
                return Err(format!("repo {repo:?} is not owner/name"));
            }
            let commit = text("commit")?;
            if commit.len() != 40 || !commit.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err(format!("commit {commit:?} is not a full hash"));
            }
            text("path")?;
            let line_ok = cause["line"].as_u64().is_some_and(|l| l > 0);
            let lines_ok = cause["lines"].as_str().and_then(|l| l.split_once('-')).is_some_and(
                |(a, b)| matches!((a.parse::<u64>(), b.parse::<u64>()), (Ok(a), Ok(b)) if a > 0 && a <= b),
            );
            if line_ok == lines_ok {
                return Err("exactly one of line (a number) and lines (\"A-B\") is needed".into());
            }
            if text("summary")?.len() < 80 {
                return Err("the summary is too short to fix the bug from".into());
            }
            Ok(())
        }
        Some(false) => {
            if text("tried")?.len() < 80 {
                return Err("tried says too little".into());
            }
            Ok(())
        }
        None => Err("located is not true or false".into()),
    }
}

/// Whether `text` has `word` (any case) at the start of a line, a heading
/// (`## Word`) or a bold label (`**Word...`).
fn labelled(text: &str, words: &[&str]) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start_matches(['#', '*', ' ']).to_ascii_lowercase();
        words.iter().any(|w| l.starts_with(w))
    })
}

/// What an issue draft must say: the versions (with a version number),
/// what was expected and what was seen, the cause and a suggested fix; at
/// most 60 lines. A question about the specification (status
/// `spec-ambiguity`) states the question instead of an expectation and a cause.
fn issue_shape(text: &str, status: &str) -> Result<(), String> {
    let lines = text.lines().count();
    if lines > 60 {
        return Err(format!("{lines} lines, more than 60"));
    }
    if !text.starts_with("# ") {
        return Err("no title".into());
    }
    let versions =
        text.lines().find(|l| l.trim_start_matches(['#', '*', ' ']).to_ascii_lowercase().starts_with("version"));
    if !versions.is_some_and(|l| l.chars().any(|c| c.is_ascii_digit())) {
        return Err("no versions line naming a version".into());
    }
    let question = status == "spec-ambiguity" && labelled(text, &["question"]);
    let needs: [(&str, &[&str]); 4] = [
        ("what was expected", if question { &["expected", "question"] } else { &["expected"] }),
        ("what was seen", &["actual", "seen", "expected vs actual"]),
        ("the cause", if question { &["cause", "question"] } else { &["cause"] }),
        ("a suggested fix", &["suggested fix", "fix", "cause and suggested fix"]),
    ];
    for (what, words) in needs {
        if !labelled(text, words) {
            return Err(format!("does not state {what} (a line starting {words:?})"));
        }
    }
    // The section forms say it inside the section: a fix needs the word.
    if !text.to_ascii_lowercase().contains("fix") {
        return Err("suggests no fix".into());
    }
    Ok(())
}

/// Issue 31: every finding can be fixed from its files alone: a reproducer
/// that needs only the owner's tools (its commands never name spvgraph or
/// cargo), a cause of the right shape, and an issue draft that names the
/// versions, expected and actual behaviour, the cause and a fix.
#[test]
fn every_finding_is_fixable_from_its_own_files() {
    let mut problems = Vec::new();
    for f in manifests() {
        let up = &f.manifest["upstream"];
        let mut list = f.reproducers();
        if let Some((_, r)) = f.fixed_behind() {
            list.push((reproduce::FIXED_BEHIND, r));
        }
        if list.is_empty() {
            problems.push(format!("{}: no upstream.reproduce", f.stem));
        }
        for (kind, r) in list {
            if let Err(e) = reproduce::checked(r) {
                problems.push(format!("{} ({kind}): {e}", f.stem));
            }
        }
        if let Err(e) = cause_shape(&up["cause"]) {
            problems.push(format!("{}: upstream.cause: {e}", f.stem));
        }
        let issue = findings_dir().join(format!("{}.ISSUE.md", f.stem));
        match std::fs::read_to_string(&issue) {
            Ok(text) => {
                if let Err(e) = issue_shape(&text, up["status"].as_str().unwrap_or("")) {
                    problems.push(format!("{}.ISSUE.md: {e}", f.stem));
                }
            }
            Err(e) => problems.push(format!("{}.ISSUE.md: {e}", f.stem)),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_fixability_checks_refuse_what_they_should() {
    assert!(cause_shape(&serde_json::json!({"located": true, "repo": "a/b", "commit": "abc", "path": "x",
                                            "line": 3, "summary": "s"}))
    .is_err_and(|e| e.contains("commit")));
    let long = "x".repeat(100);
    let hash = "0".repeat(40);
    let ok = serde_json::json!({"located": true, "repo": "a/b", "commit": hash, "path": "x", "lines": "3-9",
                                "summary": long});
    assert_eq!(cause_shape(&ok), Ok(()));
    let both = serde_json::json!({"located": true, "repo": "a/b", "commit": hash, "path": "x", "lines": "3-9",
                                  "line": 3, "summary": long});
    assert!(cause_shape(&both).is_err());
    assert!(cause_shape(&serde_json::json!({"located": false})).is_err());
    let issue =
        "# t\n\n**Versions:** x 1.0\n\n**Expected:** a\n**Actual:** b\n\n**Cause:** c\n\n**Suggested fix:** d\n";
    assert_eq!(issue_shape(issue, "open"), Ok(()));
    assert!(issue_shape(&issue.replace("**Suggested fix:** d", ""), "open").is_err());
    assert!(issue_shape(&issue.replace("x 1.0", "x"), "open").is_err());
    assert!(issue_shape(&format!("{issue}{}", "\n".repeat(60)), "open").is_err());
    let question = "# q\n**Versions:** v 2\n**Question:** which?\n**Seen:** this\n**Suggested fix:** say\n";
    assert_eq!(issue_shape(question, "spec-ambiguity"), Ok(()));
    assert!(issue_shape(question, "open").is_err(), "an open bug states a cause, not a question");
}

/// Where a located cause is: repo, commit, path and line(s).
fn cause_place(cause: &Value) -> Option<String> {
    if cause["located"].as_bool() != Some(true) {
        return None;
    }
    let line = cause["line"].as_u64().map(|l| l.to_string()).or_else(|| cause["lines"].as_str().map(str::to_string))?;
    Some(format!("{}@{}:{}:{line}", cause["repo"].as_str()?, cause["commit"].as_str()?, cause["path"].as_str()?))
}

/// Two findings with one cause are one bug with two triggers: each names
/// the other in `upstream.same_cause_as`, and a finding names only
/// findings whose located cause is its own.
#[test]
fn findings_with_one_cause_name_each_other() {
    let all = manifests();
    let mut by_place: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for f in &all {
        if let Some(place) = cause_place(&f.manifest["upstream"]["cause"]) {
            by_place.entry(place).or_default().push(&f.stem);
        }
    }
    let named = |f: &Finding| -> Vec<String> {
        f.manifest["upstream"]["same_cause_as"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    };
    let mut problems = Vec::new();
    let mut groups = 0;
    for (place, stems) in by_place.iter().filter(|(_, s)| s.len() > 1) {
        groups += 1;
        for f in all.iter().filter(|f| stems.contains(&f.stem.as_str())) {
            let mut want: Vec<String> = stems.iter().filter(|s| **s != f.stem).map(|s| s.to_string()).collect();
            let mut got = named(f);
            want.sort();
            got.sort();
            if got != want {
                problems.push(format!("{}: same_cause_as {got:?}, but {want:?} share its cause {place}", f.stem));
            }
        }
    }
    for f in &all {
        let place = cause_place(&f.manifest["upstream"]["cause"]);
        for other in named(f) {
            let o = all.iter().find(|g| g.stem == other);
            match o {
                None => problems.push(format!("{}: same_cause_as names {other}, which is not a finding", f.stem)),
                Some(o) if place.is_none() || cause_place(&o.manifest["upstream"]["cause"]) != place => {
                    problems.push(format!("{}: same_cause_as names {other}, whose located cause differs", f.stem))
                }
                Some(_) => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(groups >= 1, "the unread-input and tensor-array findings share one cause");
}

//! Every corpus finding names the project that owns its bug and carries a
//! reproducer that needs only that project's own tools (`upstream` in
//! `corpus/findings/STEM.json`, quoted in `STEM.md`). This test runs each
//! reproducer as written, against the real tools of `.oracles`, and checks
//! that it still shows what the finding says (a status, a message, output
//! values, a file); a finding fixed upstream says in which release, and
//! still reproduces with the pinned one.

use serde_json::Value;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_oracle::attribution::{Owner, Status};
use spvgraph_oracle::external::known;
use spvgraph_oracle::registry::{self, OracleConfig};
use spvgraph_oracle::tools::{Tool, Tools};
use spvgraph_testkit::scratch;
use spvgraph_testkit::Scratch;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn findings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/findings")
}

/// Every finding's stem and manifest.
fn manifests() -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = std::fs::read_dir(findings_dir())
        .expect("corpus/findings")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| {
            let stem = p.file_stem()?.to_string_lossy().into_owned();
            // `STEM.scenario.json`, `STEM.desc.json`: a tool's input, not a manifest.
            (!stem.contains('.')).then_some((stem, p))
        })
        .map(|(stem, p)| {
            let text = std::fs::read_to_string(&p).expect("manifest");
            (stem.clone(), serde_json::from_str(&text).unwrap_or_else(|e| panic!("{stem}: {e}")))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
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
    for (stem, m) in &all {
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

/// The path of a tool a reproducer names, if it is one of `.oracles`'.
fn tool_path(tools: &Tools, name: &str) -> Option<Result<PathBuf, String>> {
    let tool = match name {
        "spirv-val" => Tool::SpirvVal,
        "spirv-as" => Tool::SpirvAs,
        "spirv-dis" => Tool::SpirvDis,
        "model-converter" => Tool::ModelConverter,
        "vgf_dump" => Tool::VgfDump,
        "scenario-runner" => Tool::ScenarioRunner,
        "tosa-opt" => Tool::TosaOpt,
        "tosa_reference_model" => Tool::TosaReferenceModel,
        "iree-compile" => Tool::IreeCompile,
        "iree-run-module" => Tool::IreeRunModule,
        // The Python of the Model Explorer adapters (the `sdk` channel's venv).
        "python3" => {
            let sdk = tools.channel(spvgraph_oracle::external::model_explorer::SDK_CHANNEL);
            let found = tools.get(Tool::ModelExplorerPython).map(Path::to_path_buf).or_else(|e| {
                let sdk = sdk.map_err(|c| format!("{e}; {c}"))?;
                sdk.get(Tool::ModelExplorerPython).map(Path::to_path_buf).map_err(|e| e.to_string())
            });
            return Some(found);
        }
        // IREE's opt tool sits next to its compiler.
        "iree-opt" => {
            return Some(tools.get(Tool::IreeCompile).map(|p| p.with_file_name("iree-opt")).map_err(|e| e.to_string()))
        }
        _ => return None,
    };
    Some(tools.get(tool).map(Path::to_path_buf).map_err(|e| e.to_string()))
}

/// What running a reproducer gave.
struct Ran {
    output: String,
    last: std::process::ExitStatus,
    dir: Scratch,
}

/// The reproducer of a finding's manifest (`upstream.reproduce`) as
/// [`every_reproducer_still_shows_its_bug_with_the_pinned_tools`] runs and
/// checks it: commands to run and a status to check the last one against.
/// `Err` says what is missing. `corpus_findings` counts a finding as checked
/// when this holds, so the two agree on what a checked finding is.
pub fn checked_reproducer(manifest: &Value) -> Result<&Value, String> {
    let reproduce = &manifest["upstream"]["reproduce"];
    let commands = reproduce["commands"].as_array().ok_or("no upstream.reproduce.commands")?;
    if commands.is_empty() || !commands.iter().all(Value::is_string) {
        return Err("upstream.reproduce.commands is not a list of command lines".into());
    }
    let status = reproduce["shows"]["status"].as_str().ok_or("no upstream.reproduce.shows.status to check")?;
    let known = matches!(status, "success" | "failure")
        || status.strip_prefix("signal ").is_some_and(|n| n.parse::<i32>().is_ok());
    if !known {
        return Err(format!("upstream.reproduce.shows.status {status:?} is not success, failure or signal N"));
    }
    Ok(reproduce)
}

/// Runs `reproduce` of `stem` in a scratch copy of its files; `None` (after
/// a notice) when a tool is missing outside CI.
fn run(stem: &str, reproduce: &Value, tools: &Tools) -> Option<Ran> {
    let dir = scratch(&format!("upstream-{stem}"));
    for e in std::fs::read_dir(findings_dir()).expect("findings").flatten() {
        if e.file_name().to_string_lossy().starts_with(&format!("{stem}.")) {
            std::fs::copy(e.path(), dir.join(e.file_name())).expect("copy");
        }
    }
    let oracles = tools.root().map(|r| r.display().to_string()).unwrap_or_default();
    let mut output = String::new();
    let mut last = None;
    for c in reproduce["commands"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        let (first, rest) = c.split_once(' ').unwrap_or((c, ""));
        let line = match tool_path(tools, first) {
            Some(Ok(p)) => format!("'{}' {rest}", p.display()),
            Some(Err(e)) if Tools::required() => panic!("{stem}: CI=true and {first}: {e}"),
            Some(Err(e)) => {
                eprintln!("skipping {stem}: {first}: {e}");
                return None;
            }
            None => c.to_string(),
        };
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(&line).current_dir(&dir);
        for (k, v) in reproduce["env"].as_object().into_iter().flatten() {
            cmd.env(k, v.as_str().unwrap_or("").replace("$ORACLES", &oracles));
        }
        let out = cmd.output().expect("sh runs");
        output.push_str(&String::from_utf8_lossy(&out.stdout));
        output.push_str(&String::from_utf8_lossy(&out.stderr));
        last = Some(out.status);
    }
    Some(Ran { output, last: last.expect("at least one command"), dir })
}

/// Whether `status` is a death by signal `n`, seen directly, through a
/// shell (128 + n) or through a Python launcher (256 - n).
fn died_of(status: std::process::ExitStatus, n: i32) -> bool {
    status.signal() == Some(n) || status.code() == Some(128 + n) || status.code() == Some(256 - n)
}

fn check(stem: &str, shows: &Value, ran: &Ran) {
    let log = &ran.output;
    match shows["status"].as_str() {
        Some("success") => assert!(ran.last.success(), "{stem}: expected success, got {:?}\n{log}", ran.last),
        Some("failure") => {
            assert!(ran.last.code().is_some_and(|c| c != 0), "{stem}: expected a failure, got {:?}\n{log}", ran.last)
        }
        Some(s) => {
            let n: i32 =
                s.strip_prefix("signal ").and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{stem}: {s}"));
            assert!(died_of(ran.last, n), "{stem}: expected signal {n}, got {:?}\n{log}", ran.last);
        }
        None => panic!("{stem}: no status to check"),
    }
    for t in shows["output_contains"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        assert!(log.contains(t), "{stem}: the output no longer holds {t:?}\n{log}");
    }
    for t in shows["output_lacks"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        assert!(!log.contains(t), "{stem}: the output holds {t:?}\n{log}");
    }
    for f in shows["files"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        assert!(ran.dir.join(f).is_file(), "{stem}: {f} was not written");
    }
    if shows["npy"].is_object() {
        let npy = &shows["npy"];
        let file = ran.dir.join(npy["file"].as_str().expect("file"));
        let elem = npy["elem"].as_str().and_then(ElemType::from_name).expect("elem");
        let got = TensorData::read_npy(&file, elem).unwrap_or_else(|e| panic!("{stem}: {e}\n{log}")).to_f64();
        if let Some(want) = npy["equals"].as_array() {
            let want: Vec<f64> = want.iter().filter_map(Value::as_f64).collect();
            let close =
                got.len() == want.len() && got.iter().zip(&want).all(|(a, b)| a == b || ((a - b) / b).abs() < 1e-6);
            assert!(close, "{stem}: no longer reproduces: {got:?}, the finding says {want:?}");
        }
        if let (Some(k), Some(right), Some(by)) =
            (npy["element"].as_u64(), npy["far_from"].as_f64(), npy["by_more_than"].as_f64())
        {
            let v = got[k as usize];
            assert!((v - right).abs() > by, "{stem}: element {k} is {v}, within {by} of {right}: fixed?");
        }
    }
}

#[test]
fn every_reproducer_still_shows_its_bug_with_the_pinned_tools() {
    let tools = Tools::discover();
    let mut ran = 0;
    for (stem, m) in manifests() {
        let reproduce = checked_reproducer(&m).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let Some(r) = run(&stem, reproduce, &tools) else { continue };
        check(&stem, &reproduce["shows"], &r);
        ran += 1;
    }
    eprintln!("{ran} reproducers run");
}

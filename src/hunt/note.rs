//! The commands a finding records (how to regenerate its case, how to see
//! the disagreement again) and its `.md` note for people.

use super::case::CaseOutcome;
use super::store::StoreContext;
use serde_json::{json, Value};
use spvgraph_oracle::judge::{Disagreement, Kind};
use spvgraph_oracle::registry::IN_TREE;

/// How a finding's commands start: the `spvgraph` of the checkout the
/// directory is in, built on demand. A bare `spvgraph` is not on PATH after
/// `cargo build --release`; `cargo run` finds the workspace from any
/// directory inside the checkout and leaves the working directory alone, so
/// the files a command names stay relative to the finding.
pub const RUN: [&str; 7] = ["cargo", "run", "--release", "-q", "--bin", "spvgraph", "--"];

fn run_prefix() -> Vec<String> {
    RUN.map(String::from).to_vec()
}

/// The command that regenerates case `seed` (run in the finding's
/// directory, inside an spvgraph checkout), and the module file it writes.
pub fn reproduce(seed: u64, rule: Option<&str>, config: bool) -> (Vec<String>, String) {
    let mut argv = run_prefix();
    argv.extend(["generate", "--seed"].map(String::from));
    argv.extend([seed.to_string(), "--count".into(), "1".into()]);
    if let Some(r) = rule {
        argv.extend(["--near-valid".into(), "--rule".into(), r.to_string()]);
    }
    if config {
        argv.extend(["--config".into(), "config.json".into()]);
    }
    argv.extend(["--spvasm", "--no-mlir", "-o", "repro"].map(String::from));
    (argv, format!("repro/case_{seed}.spv"))
}

/// The command that makes network case `seed` again (`--profile networks`,
/// `network_args` selecting the same networks) and files what it shows
/// under `repro/findings/`: a network neighbour is no generator case, so
/// the hunt itself makes it again, from its seed over the same networks.
pub fn reproduce_network(seed: u64, network_args: &[String]) -> (Vec<String>, String) {
    let mut argv = run_prefix();
    argv.extend(["hunt", "--seed"].map(String::from));
    argv.extend([seed.to_string(), "--count".into(), "1".into()]);
    argv.extend(network_args.iter().cloned());
    argv.extend(["--neighbours", "0", "--no-reduce", "--out", "repro"].map(String::from));
    (argv, "repro/findings".to_string())
}

/// The command that shows the disagreement again on the finding's own
/// files (run in the finding's directory, inside an spvgraph checkout).
pub fn check_command(slug: &str, case: &CaseOutcome, d: &Disagreement, context: &StoreContext) -> Vec<String> {
    let spv = format!("{slug}.spv");
    let mut argv = run_prefix();
    match d.kind {
        Kind::Roundtrip => argv.extend(["roundtrip".into(), spv]),
        Kind::Crash
        | Kind::Timeout
        | Kind::OutOfMemory
        | Kind::RefusedValid
        | Kind::WrongOutput
        | Kind::FormDiffers
        | Kind::ObservedFormDiffers
        | Kind::AcceptsInvalid
        | Kind::CheckerDisagreesWithReference => {
            let mut oracles = vec![IN_TREE.to_string()];
            oracles.extend(d.oracles.iter().filter(|o| *o != IN_TREE).cloned());
            // The referee shows a checker disagreement as both backend and referee.
            if matches!(
                d.kind,
                Kind::WrongOutput | Kind::ObservedFormDiffers | Kind::FormDiffers | Kind::CheckerDisagreesWithReference
            ) {
                oracles.extend(context.referee.clone());
            }
            oracles.dedup();
            argv.extend(["diff".into(), spv, "--oracles".into(), oracles.join(",")]);
            if let Some(e) = &case.entry {
                argv.extend(["--entry".into(), e.clone()]);
            }
            // Every form that applies, so the pair the finding names is among them.
            if d.kind == Kind::FormDiffers {
                argv.extend(["--forms".into(), spvgraph_oracle::forms::Form::ALL.len().to_string()]);
            }
            // A backend that ran the case only rescued shows the finding only
            // with the rescue.
            let rescued = d.oracles.iter().any(|o| {
                let label = super::batch::rescue_label(o);
                case.answers.iter().any(|(name, _)| *name == label)
            });
            if rescued {
                argv.push("--rescue".into());
            }
        }
        // The reader, and the producer whose module or container it read.
        Kind::ReaderCrash | Kind::ReaderRejectsValid | Kind::ReaderDiffers => {
            let mut oracles = vec![IN_TREE.to_string()];
            oracles.extend(d.oracles.iter().cloned());
            oracles.dedup();
            // A producer's output is read from the case's TOSA MLIR.
            let produced = d.oracles.len() > 1;
            let file = if produced { format!("{slug}.mlir") } else { spv };
            argv.extend(["diff".into(), file, "--oracles".into(), oracles.join(",")]);
        }
        Kind::ProducerCrash | Kind::ProducerRejects | Kind::ProducerInvalidOutput | Kind::ProducerWrongSemantics => {
            let mut oracles: Vec<String> = d.oracles.clone();
            oracles.extend(context.validators.iter().cloned());
            oracles.push(IN_TREE.into());
            oracles.sort();
            oracles.dedup();
            argv.extend(["diff".into(), spv, "--oracles".into(), oracles.join(",")]);
            if let Some(e) = &case.entry {
                argv.extend(["--entry".into(), e.clone()]);
            }
        }
        // Both versions of the tool, with whatever judges a backend's or a producer's answer.
        Kind::Regression | Kind::Fix => {
            let mut oracles = vec![IN_TREE.to_string()];
            oracles.extend(d.oracles.iter().cloned());
            oracles.extend(context.validators.iter().cloned());
            oracles.extend(context.referee.clone());
            let mut seen = std::collections::BTreeSet::new();
            oracles.retain(|o| seen.insert(o.clone()));
            argv.extend(["diff".into(), spv, "--oracles".into(), oracles.join(",")]);
            if let Some(e) = &case.entry {
                argv.extend(["--entry".into(), e.clone()]);
            }
        }
        Kind::RejectsValid
        | Kind::MissesRule
        | Kind::WrongRule
        | Kind::ExtraRules
        | Kind::Stricter
        | Kind::OracleError
        | Kind::GeneratorInvariant
        | Kind::Panic => {
            let both = context.validators.iter().any(|v| v == spvgraph_oracle::registry::SPIRV_VAL);
            argv.extend(["validate".into(), "--oracle".into(), if both { "both" } else { "in-tree" }.into()]);
            argv.extend(["--target-env".into(), case.target_env.to_string()]);
            if let Some(p) = &case.profiles {
                argv.extend(["--profiles".into(), p.iter().map(|p| p.name()).collect::<Vec<_>>().join(",")]);
            }
            argv.push(spv);
        }
    }
    argv
}

/// The `SLUG.md` note.
pub fn note(slug: &str, manifest: &Value) -> String {
    let f = &manifest["finding"];
    let s = |v: &Value| v.as_str().map(str::to_string).unwrap_or_else(|| "-".into());
    let oracles: Vec<String> = f["oracles"]
        .as_array()
        .map(|a| a.iter().filter_map(|o| o.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    let mut out = format!("# {}: {} ({} severity)", oracles.join(" and "), s(&f["kind"]), s(&f["severity"]));
    if f["documented"].is_object() {
        out.push_str(" — documented discrepancy");
    }
    if let Some(r) = f["rule"].as_str() {
        out.push_str(&format!(", {r}"));
    }
    if let Some(op) = f["operator"].as_str() {
        out.push_str(&format!(", {op}"));
    }
    out.push_str(&format!("\n\n{}.\n\n{}\n\n", capitalize(&s(&f["meaning"])), s(&f["detail"])));
    if let Some(doc) = f["documented"].as_object() {
        out.push_str(&format!(
            "**Documented discrepancy**: {} (minimal module: `{}`). A hunt counts it as known, never as new.\n\n",
            doc.get("why").and_then(Value::as_str).unwrap_or("-"),
            doc.get("finding").and_then(Value::as_str).unwrap_or("-"),
        ));
        for line in documented_cause(&f["documented"]) {
            out.push_str(&format!("{line}\n\n"));
        }
    }
    out.push_str(&format!("- case: {} module, seed {}", s(&f["case"]), f["seed"]));
    if let Some(m) = f["mutator"].as_str() {
        out.push_str(&format!(", mutator `{m}`: {}", s(&f["note"])));
    }
    if let Some(e) = f["entry"].as_str() {
        out.push_str(&format!("\n- entry point run: `{e}`"));
    }
    if let Some(ops) = f["operators"].as_array().filter(|a| !a.is_empty()) {
        let names: Vec<String> = ops.iter().filter_map(|o| o.as_str().map(str::to_string)).collect();
        out.push_str(&format!("\n- operators: {}", names.join(", ")));
    }
    out.push_str(&format!("\n- target environment: {}", s(&f["target_env"])));
    out.push_str(&format!(
        "\n- expected: {}",
        if f["expected"]["valid"] == json!(true) {
            "valid".into()
        } else {
            format!("breaks {}", s(&f["expected"]["rule"]))
        }
    ));
    if let Some(answers) = f["answers"].as_object() {
        for (name, a) in answers {
            out.push_str(&format!("\n- {name}: {}", answer_text(a)));
        }
    }
    if let Some(versions) = f["versions"].as_object().filter(|v| !v.is_empty()) {
        let list: Vec<String> = versions.iter().map(|(k, v)| format!("{k}: {}", v.as_str().unwrap_or("?"))).collect();
        out.push_str(&format!("\n- versions: {}", list.join("; ")));
    }
    out.push_str(&format!("\n- signature: `{}`\n", s(&f["signature"])));
    if let Some(why) = missing_spvasm(manifest) {
        out.push_str(&format!("\nNo `{slug}.spvasm`: {why}\n"));
    }
    out.push_str(&format!(
        "\nSee it again (in this directory, inside an spvgraph checkout; `cargo` builds `spvgraph` the first time):\n\n    {}\n\nRegenerate the case from its seed (writes `{}`, byte-identical to `{slug}.spv`):\n\n    {}\n",
        s(&f["check"]),
        s(&f["reproduce_output"]),
        s(&f["reproduce"]),
    ));
    out.push_str(&format!("\n`{slug}.json` has every answer in full.\n"));
    out
}

/// The corpus manifest (`corpus/findings/STEM.json`) of a documented
/// row's minimal module (`finding`, `corpus/findings/STEM.spv`, relative to
/// the repository root): looked for from the working directory up, then
/// beside the executable, then in the source tree this was built from.
pub fn corpus_manifest(finding: &str) -> Option<Value> {
    let json = std::path::Path::new(finding).with_extension("json");
    let mut roots: Vec<std::path::PathBuf> = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        roots.extend(cwd.ancestors().map(std::path::Path::to_path_buf));
    }
    if let Ok(exe) = std::env::current_exe() {
        roots.extend(exe.ancestors().skip(1).map(std::path::Path::to_path_buf));
    }
    roots.push(std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let path = roots.into_iter().map(|r| r.join(&json)).find(|p| p.is_file())?;
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// What the corpus says of a documented finding's bug, for its note and
/// `UPSTREAM.md`: where its cause is (`upstream.cause`: file and lines at a
/// commit of the owner's repository, with the reasoning; or what was tried
/// when it is not located) and the other corpus findings with the same
/// cause (`upstream.same_cause_as`: one bug, several triggers). Empty when
/// the row's minimal module has no manifest here.
pub fn documented_cause(documented: &Value) -> Vec<String> {
    let Some(manifest) = documented["finding"].as_str().and_then(corpus_manifest) else { return Vec::new() };
    let up = &manifest["upstream"];
    let cause = &up["cause"];
    let mut out = Vec::new();
    match cause["located"].as_bool() {
        Some(true) => {
            let line = cause["line"]
                .as_u64()
                .map(|l| l.to_string())
                .or_else(|| cause["lines"].as_str().map(str::to_string))
                .unwrap_or_else(|| "?".into());
            let commit: String = cause["commit"].as_str().unwrap_or("?").chars().take(12).collect();
            out.push(format!(
                "**Cause** (`upstream.cause` of the corpus finding): `{}:{line}` at {} {commit}: {}",
                cause["path"].as_str().unwrap_or("?"),
                cause["repo"].as_str().unwrap_or("?"),
                cause["summary"].as_str().unwrap_or("-")
            ));
        }
        Some(false) => out.push(format!(
            "**Cause** not located (`upstream.cause`); tried: {}",
            cause["tried"].as_str().unwrap_or("-")
        )),
        None => {}
    }
    let same: Vec<String> = up["same_cause_as"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|s| format!("`{s}`"))
        .collect();
    if !same.is_empty() {
        out.push(format!(
            "**Same cause as** {} (`upstream.same_cause_as`): one bug with several triggers; a fix of the cause \
             fixes them all.",
            same.join(", ")
        ));
    }
    out
}

/// Why the finding has no text form, when it has none.
fn missing_spvasm(manifest: &Value) -> Option<String> {
    if manifest["spvasm"].is_string() {
        return None;
    }
    let f = &manifest["finding"];
    Some(if let Some(e) = f["files_error"].as_str() {
        format!("the case's files could not all be written ({e}).")
    } else if let Some(e) = f["roundtrip"]["detail"].as_str().filter(|_| f["roundtrip"]["decodes"] == json!(false)) {
        format!(
            "the module does not decode, so it has no text form ({e}); read the words with `spirv-dis` or a hex dump."
        )
    } else if manifest["spv"].is_null() {
        "there is no module (generation failed before one was made).".to_string()
    } else {
        "the module could not be disassembled.".to_string()
    })
}

/// One line for an oracle's answer.
fn answer_text(a: &Value) -> String {
    let s = |k: &str| a[k].as_str().unwrap_or("").to_string();
    match a["answer"].as_str() {
        Some("valid") => "accepts".into(),
        Some("invalid") => {
            let rules: Vec<String> = a["rules"]
                .as_array()
                .map(|r| r.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
                .unwrap_or_default();
            let first = a["diagnostics"].get(0).and_then(Value::as_str).unwrap_or("");
            if rules.is_empty() {
                format!("rejects: {first}")
            } else {
                format!("rejects ({}): {first}", rules.join(", "))
            }
        }
        Some("outputs") => format!("outputs {}", a["outputs"]),
        Some("refused") => format!("refuses ({}): {}", s("kind"), first_line(&s("reason"))),
        Some("abnormal") => format!("{}: {}", s("how"), first_line(&s("detail"))),
        Some("produced") => format!("produced a module of {} words", a["words"]),
        Some("error") => format!("error: {}", s("error")),
        _ => a.to_string(),
    }
}

fn first_line(s: &str) -> String {
    let line = s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduce_commands_name_the_rule_and_config() {
        let (argv, out) = reproduce(42, Some("tosa.shape.output"), true);
        assert_eq!(
            argv.join(" "),
            "cargo run --release -q --bin spvgraph -- generate --seed 42 --count 1 --near-valid --rule \
             tosa.shape.output --config config.json --spvasm --no-mlir -o repro"
        );
        assert_eq!(out, "repro/case_42.spv");
        let (argv, _) = reproduce(7, None, false);
        assert_eq!(
            argv.join(" "),
            "cargo run --release -q --bin spvgraph -- generate --seed 7 --count 1 --spvasm --no-mlir -o repro"
        );
    }

    #[test]
    fn the_note_says_why_there_is_no_text_form_and_when_a_finding_is_documented() {
        let finding = json!({
            "kind": "misses-rule", "severity": "medium", "oracles": ["spirv-val"], "seed": 3,
            "roundtrip": { "ran": true, "identical": false, "decodes": false, "detail": "word 7: bad word count" },
            "documented": { "why": "spirv-val does not check it", "finding": "corpus/findings/x.spv" },
        });
        let md = note("s", &json!({ "spv": "s.spv", "finding": finding }));
        assert!(md.starts_with("# spirv-val: misses-rule (medium severity) — documented discrepancy"), "{md}");
        assert!(
            md.contains("No `s.spvasm`: the module does not decode, so it has no text form (word 7: bad word count)"),
            "{md}"
        );
        let md = note("s", &json!({ "spv": "s.spv", "spvasm": "s.spvasm", "finding": { "kind": "panic" } }));
        assert!(!md.contains("No `s.spvasm`") && !md.contains("documented discrepancy"), "{md}");
    }

    /// A finding seen only through a backend's rescue checks with
    /// `--rescue`; a form difference names every form.
    #[test]
    fn a_documented_finding_shows_its_cause_and_the_findings_with_the_same_cause() {
        let m = json!({"finding": {"oracles": ["vulkan"], "kind": "wrong-output", "severity": "high",
            "documented": { "why": "zeros", "finding": "corpus/findings/emulation-layer-unread-input-zeros.spv" }}});
        let md = note("s", &m);
        assert!(md.contains("`graph/graph_ext_inst_context.cpp:83` at arm/ai-ml-emulation-layer-for-vulkan"), "{md}");
        assert!(md.contains("**Same cause as** `emulation-layer-tensor-array-elements-sigsegv`"), "{md}");
        // A row without a corpus manifest here says nothing more.
        assert!(documented_cause(&json!({"finding": "corpus/findings/no-such-finding.spv"})).is_empty());
    }

    #[test]
    fn the_check_command_rescues_when_the_finding_came_through_the_rescue() {
        use spvgraph_oracle::judge::{Disagreement, Kind};
        use spvgraph_oracle::oracle::{ExecOutcome, Refusal};
        let mut case = CaseOutcome {
            index: 0,
            seed: 0,
            planned_rule: None,
            subject: super::super::case::Subject::Nothing,
            unavailable: None,
            words: None,
            target_env: spvgraph_ir::env::TargetEnv::VULKAN_1_3,
            profiles: None,
            roundtrip: super::super::case::RoundTrip::NotRun,
            answers: Vec::new(),
            durations: Vec::new(),
            entry: Some("g".into()),
            operators: Vec::new(),
            disagreements: Vec::new(),
            coverage: Vec::new(),
            neighbour: None,
            network: None,
        };
        let refused = Ok(ExecOutcome::Refused { kind: Refusal::Unsupported, reason: "no".into() });
        case.answers.push(("iree".into(), super::super::case::Answer::of_outcome(&refused)));
        let context = StoreContext { referee: Some("tosa-ref".into()), ..StoreContext::default() };
        let d = Disagreement::new(Kind::WrongOutput, "iree", "ADD is wrong");
        let plain = check_command("s", &case, &d, &context).join(" ");
        assert!(plain.ends_with("diff s.spv --oracles in-tree,iree,tosa-ref --entry g"), "{plain}");
        let outputs = Ok(ExecOutcome::Outputs(Vec::new()));
        case.answers
            .push((super::super::batch::rescue_label("iree"), super::super::case::Answer::of_outcome(&outputs)));
        let rescued = check_command("s", &case, &d, &context).join(" ");
        assert!(rescued.ends_with("--entry g --rescue"), "{rescued}");
        let forms = Disagreement::new(Kind::FormDiffers, "iree", "forms differ");
        let all = check_command("s", &case, &forms, &context).join(" ");
        let n = spvgraph_oracle::forms::Form::ALL.len();
        assert!(all.contains(&format!("--forms {n}")), "{all}");
    }
}

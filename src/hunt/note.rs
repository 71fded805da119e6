//! A finding's `.md` note for people: what was seen, whether it is a
//! documented discrepancy and its cause, and how to reproduce it (the
//! commands come from [`super::reproduce_command`], recorded in the manifest).

use serde_json::{json, Value};

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
}

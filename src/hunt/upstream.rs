//! `UPSTREAM.md`: a finding written as a report to the project that owns the
//! bug, next to its `SLUG.md` note.
//!
//! It says whose bug it is and why (a documented discrepancy's owner, or the
//! component the oracles that show it have in common, see
//! [`spvgraph_oracle::attribution`]), the versions, the specification clause
//! with its section, the expected and actual values on the reduced case,
//! and a reproducer that needs only that project's own tools, written into
//! `upstream/` by the culprit oracle's adapter
//! ([`spvgraph_oracle::oracle::Executor::standalone_execute`] and its
//! siblings). `graph.svg` is a picture of the reduced graph with the culprit
//! operator marked, which `spvgraph report` shows.

use super::picture;
use super::reduce_finding::{stored_case, StoredFinding};
use crate::reduce;
use anyhow::Context;
use serde_json::Value;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{clauses, TosaOp};
use spvgraph_oracle::attribution::{attribute, Owner};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::judge::Kind;
use spvgraph_oracle::oracle::{
    Capability, ExecOutcome, ExecRequest, Oracle, OracleError, ProduceRequest, Standalone, ValidateOptions, Verdict,
};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The report's file name in a finding's directory.
pub const FILE: &str = "UPSTREAM.md";
/// The directory the standalone reproducer is written to.
pub const REPRO_DIR: &str = "upstream";
/// The picture of the reduced graph.
pub const PICTURE: &str = "graph.svg";

/// Finds an oracle by name (the hunt's own, or one built from the registry).
pub type Lookup<'a> = dyn Fn(&str) -> Option<Arc<dyn Oracle>> + 'a;

/// Another finding of the same hunt, as evidence: the same case shown by a
/// second oracle points at what the two have in common.
#[derive(Clone, Debug)]
pub struct Sibling {
    /// Its oracles, the culprit first.
    pub oracles: Vec<String>,
    /// Its kind.
    pub kind: String,
    /// Its operator, when one.
    pub operator: Option<String>,
    /// The seeds it occurred at.
    pub seeds: Vec<u64>,
}

impl Sibling {
    /// The sibling record of a stored finding.
    pub fn of(f: &super::findings::Finding) -> Sibling {
        let g = f.finding();
        let mut seeds: Vec<u64> =
            g["example_seeds"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect();
        seeds.extend(g["seed"].as_u64());
        Sibling {
            oracles: f.oracles(),
            kind: f.text("kind").to_string(),
            operator: g["operator"].as_str().map(str::to_string),
            seeds,
        }
    }
}

/// The case of a stored finding as a request: its words, entry point,
/// inputs and graph constants (of the reduced case when it was reduced).
struct Request {
    words: Vec<u32>,
    entry: Option<String>,
    inputs: Vec<TensorData>,
    graph_constants: BTreeMap<u32, TensorData>,
}

impl Request {
    fn of(stored: &StoredFinding) -> anyhow::Result<Request> {
        let words = stored.candidate.module.encode_words().map_err(|e| anyhow::anyhow!("cannot encode: {e}"))?;
        let case = reduce::candidate_to_case(&stored.candidate);
        let wanted = stored.manifest["finding"]["entry"].as_str();
        let ep = case.entry_points.iter().find(|e| Some(e.name.as_str()) == wanted).or(case.entry_points.first());
        Ok(Request {
            words,
            entry: ep.map(|e| e.name.clone()),
            inputs: ep.map(|e| e.inputs.iter().map(|t| t.data.clone()).collect()).unwrap_or_default(),
            graph_constants: stored.candidate.graph_constants.clone(),
        })
    }

    fn exec(&self) -> ExecRequest<'_> {
        ExecRequest {
            module: &self.words,
            entry_point: self.entry.as_deref(),
            inputs: &self.inputs,
            graph_constants: &self.graph_constants,
        }
    }
}

/// Writes `UPSTREAM.md`, `upstream/` and `graph.svg` into the finding
/// directory `dir`; returns the report's path.
pub fn write(dir: &Path, lookup: &Lookup<'_>, siblings: &[Sibling]) -> anyhow::Result<PathBuf> {
    let stored = match stored_case(dir) {
        Ok(s) => s,
        // A near-valid module need not decode (a string that is not UTF-8):
        // its report then says so and shows it again with the check command.
        Err(e) => return write_undecodable(dir, &e),
    };
    let f = &stored.manifest["finding"];
    let culprit_name = f["oracles"][0].as_str().unwrap_or("?").to_string();
    let culprit = lookup(&culprit_name);
    let kind = underlying_kind(f);
    let operator = f["operator"].as_str().and_then(TosaOp::from_name);
    let request = Request::of(&stored)?;

    let mut md = format!("# {}\n\n", title(f));
    owner_section(&mut md, f, &culprit_name, culprit.as_deref(), lookup, siblings);
    versions_section(&mut md, f);
    spec_section(&mut md, f, operator);
    values_section(&mut md, f, kind, culprit.as_deref(), &request, &stored);
    let repro = dir.join(REPRO_DIR);
    let _ = std::fs::remove_dir_all(&repro);
    std::fs::create_dir_all(&repro).with_context(|| format!("cannot create {}", repro.display()))?;
    let standalone = culprit.as_deref().map(|o| standalone(o, kind, f, &request, &stored, &repro));
    reproducer_section(&mut md, f, standalone);
    if let Some(svg) = picture::graph_svg(
        &stored.candidate.module,
        request.entry.as_deref(),
        &operator.into_iter().collect::<Vec<_>>(),
    ) {
        std::fs::write(dir.join(PICTURE), svg).with_context(|| format!("cannot write {PICTURE}"))?;
        let _ = writeln!(md, "\n## The graph\n\n![the reduced graph, culprit operator marked]({PICTURE})");
    }
    let path = dir.join(FILE);
    std::fs::write(&path, md).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// The report of a finding whose module does not decode: what is known
/// from its manifest, and the command that shows it again on the `.spv`.
fn write_undecodable(dir: &Path, why: &anyhow::Error) -> anyhow::Result<PathBuf> {
    let json_path = super::reduce_finding::finding_manifest(dir)?;
    let text = std::fs::read_to_string(&json_path).with_context(|| format!("cannot read {}", json_path.display()))?;
    let manifest: Value = serde_json::from_str(&text).with_context(|| format!("{}: not JSON", json_path.display()))?;
    let f = &manifest["finding"];
    let mut md = format!(
        "# {}

",
        title(f)
    );
    let _ = writeln!(
        md,
        "The module does not decode ({why:#}), so there is no graph, request or standalone reproducer; \
         the tools that read raw SPIR-V are shown it as it is.\n"
    );
    if let Some(detail) = f["detail"].as_str() {
        let _ = writeln!(md, "## What happened\n\n{detail}\n");
    }
    if let Some(check) = f["check"].as_str() {
        let _ = writeln!(md, "## Reproduce\n\n```sh\n{check}\n```");
    }
    let path = dir.join(FILE);
    std::fs::write(&path, md).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// The kind of disagreement the finding is about. A version differential
/// (`regression`, `fix`) is about the wrong version's own disagreement, whose
/// kind its discriminator starts with (`producer-crash, ...`): the expected
/// and actual values and the standalone reproducer are that kind's.
fn underlying_kind(f: &Value) -> Option<Kind> {
    let kind = f["kind"].as_str().and_then(Kind::from_name);
    match kind {
        Some(Kind::Regression | Kind::Fix) => {
            f["discriminator"].as_str().and_then(|d| d.split(", ").next()).and_then(Kind::from_name).or(kind)
        }
        k => k,
    }
}

fn title(f: &Value) -> String {
    let s = |k: &str| f[k].as_str().unwrap_or("?").to_string();
    let oracles: Vec<String> =
        f["oracles"].as_array().into_iter().flatten().filter_map(|o| o.as_str().map(str::to_string)).collect();
    let mut t = format!("{}: {}", oracles.join(" and "), s("kind"));
    if let Some(op) = f["operator"].as_str() {
        let _ = write!(t, " on {op}");
    }
    if let Some(r) = f["rule"].as_str() {
        let _ = write!(t, " ({r})");
    }
    t
}

fn owner_section(
    md: &mut String,
    f: &Value,
    culprit_name: &str,
    culprit: Option<&dyn Oracle>,
    lookup: &Lookup<'_>,
    siblings: &[Sibling],
) {
    md.push_str("## Whose bug\n\n");
    let doc = &f["documented"];
    if let Some(owner) = doc["owner"].as_str().and_then(Owner::from_name) {
        let status = doc["status"].as_str().unwrap_or("open");
        let _ = write!(md, "**{}** (report to: {}). Status: {status}", owner.project(), owner.tracker());
        if let Some(v) = doc["version"].as_str() {
            let _ = write!(md, ", fixed in {v}");
        }
        if let Some(u) = doc["upstream"].as_str() {
            let _ = write!(md, "; upstream: {u}");
        }
        let _ = writeln!(md, ".\n\nEvidence:\n");
        let _ = writeln!(
            md,
            "- an instance of a documented discrepancy of {culprit_name}: {} (minimal module `{}`)",
            doc["why"].as_str().unwrap_or("-"),
            doc["finding"].as_str().unwrap_or("-")
        );
        let features: Vec<&str> = doc["features"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        if !features.is_empty() {
            let _ = writeln!(md, "- the module has what triggers it: {}", features.join(", "));
        }
        md.push('\n');
        for line in super::note::documented_cause(doc) {
            let _ = writeln!(md, "{line}\n");
        }
        return;
    }
    let empty: &[Owner] = &[];
    let seed = f["seed"].as_u64();
    let kind = f["kind"].as_str().unwrap_or("");
    let op = f["operator"].as_str();
    let mut showing: Vec<(String, &[Owner])> =
        vec![(culprit_name.to_string(), culprit.map_or(empty, |o| o.components()))];
    for s in siblings {
        let same = s.kind == kind && s.operator.as_deref() == op && seed.is_some_and(|x| s.seeds.contains(&x));
        match s.oracles.first() {
            Some(first) if same && first != culprit_name && !showing.iter().any(|(n, _)| n == first) => {
                showing.push((first.clone(), lookup(first).map_or(empty, |o| o.components())));
            }
            _ => {}
        }
    }
    let pairs: Vec<(&str, &[Owner])> = showing.iter().map(|(n, c)| (n.as_str(), *c)).collect();
    match attribute(&pairs) {
        Some(a) => {
            let _ = writeln!(
                md,
                "**{}** (report to: {}). Status: new, not documented.\n\nEvidence:\n",
                a.owner.project(),
                a.owner.tracker()
            );
            for e in &a.evidence {
                let _ = writeln!(md, "- {e}");
            }
            if !a.open_questions.is_empty() {
                md.push_str("\nStill to rule out:\n\n");
                for q in &a.open_questions {
                    let _ = writeln!(md, "- {q}");
                }
            }
        }
        None => {
            let _ = writeln!(md, "Not decided: {culprit_name} names no project its answers come from.");
        }
    }
    md.push('\n');
}

fn versions_section(md: &mut String, f: &Value) {
    md.push_str("## Versions\n\n");
    for (name, v) in f["versions"].as_object().into_iter().flatten() {
        let _ = writeln!(md, "- {name}: {}", v.as_str().unwrap_or("?"));
    }
    let _ = writeln!(md, "- spvgraph: {}\n", f["spvgraph_version"].as_str().unwrap_or("?"));
}

fn spec_section(md: &mut String, f: &Value, operator: Option<TosaOp>) {
    md.push_str("## What the specification says\n\n");
    let rule = f["rule"].as_str().and_then(RuleId::from_name);
    if let Some(r) = rule {
        let info = r.info();
        let _ = writeln!(md, "Rule `{}`, from {}:\n\n> {}\n", info.name, info.reference, info.spec);
    }
    if let Some(c) = operator.and_then(clauses::clause) {
        let _ = writeln!(
            md,
            "TOSA 1.0, {} (§{} of the TOSA.001000.1 reference), what it computes:\n\n> {}\n\nFloating-point accuracy:\n\n> {}\n",
            c.op.name(),
            c.section,
            c.semantics,
            c.accuracy
        );
    }
    if rule.is_none() && operator.is_none() {
        md.push_str("No single rule or operator is concerned; see the values below.\n\n");
    }
}

fn brief(o: &Result<ExecOutcome, OracleError>) -> String {
    match o {
        Ok(ExecOutcome::Outputs(v)) => {
            let parts: Vec<String> = v
                .iter()
                .enumerate()
                .map(|(j, t)| {
                    let values = t.to_f64();
                    let shown: Vec<String> = values.iter().take(16).map(|x| format!("{x}")).collect();
                    let more = if values.len() > 16 { ", …" } else { "" };
                    format!("output {j} ({} {:?}): [{}{more}]", t.elem(), t.shape(), shown.join(", "))
                })
                .collect();
            parts.join("; ")
        }
        Ok(ExecOutcome::Refused { kind, reason }) => format!("refused ({kind:?}): {}", first_line(reason)),
        Ok(ExecOutcome::Abnormal { how, detail }) => format!("{how}: {}", first_line(detail)),
        Err(e) => format!("no answer: {e}"),
    }
}

fn verdict_text(v: &Result<Verdict, OracleError>) -> String {
    match v {
        Ok(Verdict::Valid) => "valid (accepts)".into(),
        Ok(Verdict::Invalid(ds)) => format!("invalid: {}", ds.first().map(|d| d.message.as_str()).unwrap_or("")),
        Err(e) => format!("no answer: {e}"),
    }
}

fn first_line(s: &str) -> String {
    s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("").chars().take(300).collect()
}

fn values_section(
    md: &mut String,
    f: &Value,
    kind: Option<Kind>,
    culprit: Option<&dyn Oracle>,
    request: &Request,
    stored: &StoredFinding,
) {
    md.push_str("## Expected and actual\n\n");
    let reduced = stored.manifest["reduction"].is_object();
    let which = if reduced { "the reduced case" } else { "the case" };
    let executes = culprit.is_some_and(|o| o.capabilities().contains(&Capability::Execute));
    let validates = culprit.is_some_and(|o| o.capabilities().contains(&Capability::Validate));
    match (kind, culprit) {
        (Some(Kind::WrongOutput | Kind::Crash | Kind::Timeout | Kind::OutOfMemory | Kind::RefusedValid), Some(o))
            if executes =>
        {
            let expected = Executor::default().execute(&request.exec());
            let actual = o.executor().and_then(|e| e.execute(&request.exec()));
            let _ = writeln!(md, "On {which}, entry point `{}`:\n", request.entry.as_deref().unwrap_or("-"));
            let _ = writeln!(
                md,
                "- expected (spvgraph's reference executor; the TOSA reference model referees): {}",
                brief(&expected)
            );
            let _ = writeln!(md, "- actual ({}): {}\n", o.name(), brief(&actual));
        }
        (_, Some(o)) if validates && f["expected"].is_object() => {
            let env = f["target_env"]
                .as_str()
                .and_then(spvgraph_ir::env::TargetEnv::parse)
                .unwrap_or(spvgraph_ir::env::TargetEnv::VULKAN_1_3);
            let options = ValidateOptions::for_case(env, None);
            let expected = match f["expected"]["rule"].as_str() {
                Some(r) => format!("invalid: breaks `{r}`"),
                None => "valid".into(),
            };
            let _ = writeln!(md, "- expected: {expected}");
            let _ = writeln!(
                md,
                "- actual ({} on {which}): {}\n",
                o.name(),
                verdict_text(&o.validator().and_then(|v| v.validate(&request.words, &options)))
            );
        }
        _ => {
            let _ = writeln!(md, "{}\n", f["detail"].as_str().unwrap_or("-"));
        }
    }
}

fn standalone(
    o: &dyn Oracle,
    kind: Option<Kind>,
    f: &Value,
    request: &Request,
    stored: &StoredFinding,
    dir: &Path,
) -> Result<Option<Standalone>, OracleError> {
    let caps = o.capabilities();
    match kind {
        Some(
            Kind::ProducerCrash | Kind::ProducerRejects | Kind::ProducerInvalidOutput | Kind::ProducerWrongSemantics,
        ) => {
            let Some(entry) = &request.entry else { return Ok(None) };
            let Ok(mlir) = spvgraph_ir::mlir::module_to_mlir(&stored.candidate.module, entry, &request.graph_constants)
            else {
                return Ok(None);
            };
            let debug_info = f["discriminator"].as_str().is_some_and(|d| d.contains("debug info"));
            let request = ProduceRequest { mlir: &mlir, debug_info };
            o.as_producer().map_or(Ok(None), |p| p.standalone_produce(&request, dir))
        }
        Some(Kind::ReaderCrash | Kind::ReaderRejectsValid | Kind::ReaderDiffers) => {
            o.as_reader().map_or(Ok(None), |r| r.standalone_read(&request.words, dir))
        }
        _ if caps.contains(&Capability::Execute) && !caps.contains(&Capability::Validate) => {
            o.as_executor().map_or(Ok(None), |e| e.standalone_execute(&request.exec(), dir))
        }
        _ if caps.contains(&Capability::Validate) => {
            let env = f["target_env"]
                .as_str()
                .and_then(spvgraph_ir::env::TargetEnv::parse)
                .unwrap_or(spvgraph_ir::env::TargetEnv::VULKAN_1_3);
            let options = ValidateOptions::for_case(env, None);
            o.as_validator().map_or(Ok(None), |v| v.standalone_validate(&request.words, &options, dir))
        }
        _ => Ok(None),
    }
}

fn reproducer_section(md: &mut String, f: &Value, standalone: Option<Result<Option<Standalone>, OracleError>>) {
    md.push_str("## Reproduce\n\n");
    match standalone {
        Some(Ok(Some(s))) => {
            let _ =
                writeln!(md, "With {} only, in `{REPRO_DIR}/` (every file it needs is there):\n", s.tools.join(", "));
            md.push_str("```sh\n");
            for (k, v) in &s.env {
                let _ = writeln!(md, "export {k}={v}");
            }
            for c in &s.commands {
                let _ = writeln!(md, "{c}");
            }
            md.push_str("```\n\n");
            let _ = writeln!(md, "Look at: {}.\n", s.look);
            if s.env.iter().any(|(_, v)| v.contains("$ORACLES")) {
                md.push_str("`$ORACLES` is where spvgraph's `ci/setup-oracles` installed the tools (`.oracles/`).\n\n");
            }
        }
        Some(Ok(None)) | None => md.push_str("No standalone reproducer for this oracle.\n\n"),
        Some(Err(e)) => {
            let _ = writeln!(md, "The standalone reproducer could not be written: {e}\n");
        }
    }
    let _ = writeln!(
        md,
        "With spvgraph (in this directory, inside an spvgraph checkout):\n\n    {}\n",
        f["check"].as_str().unwrap_or("-")
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_title_names_oracles_kind_operator_and_rule() {
        let f = json!({"oracles": ["iree"], "kind": "wrong-output", "operator": "RSQRT", "rule": null});
        assert_eq!(title(&f), "iree: wrong-output on RSQRT");
        let f = json!({"oracles": ["spirv-val"], "kind": "misses-rule", "rule": "tosa.operand-count"});
        assert_eq!(title(&f), "spirv-val: misses-rule (tosa.operand-count)");
    }

    #[test]
    fn a_version_differential_is_reproduced_as_the_kind_it_is_about() {
        let f = json!({"kind": "regression", "discriminator": "producer-crash, with debug info"});
        assert_eq!(underlying_kind(&f), Some(Kind::ProducerCrash));
        let f = json!({"kind": "fix", "discriminator": "wrong-output"});
        assert_eq!(underlying_kind(&f), Some(Kind::WrongOutput));
        assert_eq!(underlying_kind(&json!({"kind": "regression"})), Some(Kind::Regression));
        assert_eq!(underlying_kind(&json!({"kind": "crash"})), Some(Kind::Crash));
    }

    #[test]
    fn a_documented_finding_names_its_owner_status_and_features() {
        let f = json!({"documented": {"owner": "mesa", "status": "open", "why": "lavapipe log", "finding": "x.spv",
            "features": ["subnormal-inputs"], "upstream": null}});
        let mut md = String::new();
        owner_section(&mut md, &f, "emulation-layer", None, &|_| None, &[]);
        assert!(
            md.contains("**Mesa (lavapipe)**") && md.contains("subnormal-inputs") && md.contains("Status: open"),
            "{md}"
        );
    }

    #[test]
    fn a_documented_finding_names_the_cause_and_its_other_triggers() {
        let f = json!({"documented": {"owner": "emulation-layer", "status": "open", "why": "crash",
            "finding": "corpus/findings/emulation-layer-tensor-array-elements-sigsegv.spv", "features": []}});
        let mut md = String::new();
        owner_section(&mut md, &f, "vulkan", None, &|_| None, &[]);
        assert!(md.contains("graph/graph_ext_inst_context.cpp:83"), "{md}");
        assert!(md.contains("**Same cause as** `emulation-layer-unread-input-zeros`"), "{md}");
    }
}

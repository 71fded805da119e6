//! `spvgraph validate [OPTIONS] FILE...`: the in-tree validator (and/or
//! spirv-val) on module files.
//!
//! Diagnostics go to stderr as `FILE: word N: <instruction>: [rule] message`
//! (warnings say `warning:` before the rule, pipeline-rule findings
//! `pipeline:`), followed once per broken rule by its spec text and source;
//! a one-line verdict per file goes to stdout. `--json` prints one JSON
//! document with everything on stdout instead.
//!
//! `--pipeline ENTRY` also checks the pipeline-creation rules (Vulkan
//! `VUID-RuntimeSpirv-*`) for the graph entry point ENTRY: whether a Vulkan
//! implementation may create a data-graph pipeline for it. They are never
//! part of a module's validity; with `--pipeline` a file passes only if it
//! is valid, has that entry point and breaks none of them.
//!
//! Exit status: 0 every file valid (and, with `--pipeline`, every pipeline
//! possible), 1 otherwise, 2 usage or I/O error.

use super::{input, Outcome};
use anyhow::{bail, Context};
use serde_json::{json, Value};
use spvgraph::validate::Judged;
use spvgraph_ir::elem::Profile;
use spvgraph_ir::rules::{RuleId, Severity};
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{Diagnostic, Level, Oracle, ValidateOptions, Validator as _, Verdict};
use spvgraph_oracle::validate::{Report, TargetEnv, Validator};
use std::path::{Path, PathBuf};

/// Which validator(s) to run.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    /// The in-tree validator (every rule of the catalogue).
    InTree,
    /// spirv-val (in process when libSPIRV-Tools-shared.so is found).
    SpirvVal,
    /// Both; a file is valid only if both accept it, or spirv-val rejects
    /// it in a way its documented table explains.
    Both,
}

/// TOSA level for level-limit warnings.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum LevelArg {
    /// Level 8K.
    #[value(name = "8k")]
    EightK,
    /// No level (the large limits).
    None,
}

/// Arguments of `validate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// SPIR-V module files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Target environment, with spirv-val's names (vulkan1.0-vulkan1.4,
    /// vulkan1.1spv1.4, spv1.0-spv1.6 or universal1.0-universal1.6, opencl*, opengl*).
    #[arg(long, default_value = "vulkan1.3", value_parser = parse_env)]
    target_env: TargetEnv,
    /// TOSA level: `8k` reports level-limit violations as warnings.
    #[arg(long, value_enum, default_value = "8k")]
    level: LevelArg,
    /// The TOSA profiles and extensions the consumer supports, comma-separated
    /// (PRO-INT, PRO-FP, EXT-INT16, EXT-BF16, EXT-FP8E4M3, EXT-FP8E5M2,
    /// EXT-FFT, EXT-DOUBLEROUND, EXT-INEXACTROUND); default: all.
    #[arg(long, value_delimiter = ',', value_parser = parse_profile)]
    profiles: Option<Vec<Profile>>,
    /// Profiles or extensions to leave out (repeatable, or comma-separated).
    #[arg(long = "no-profile", value_delimiter = ',', value_parser = parse_profile)]
    no_profile: Vec<Profile>,
    /// Which validator to run.
    #[arg(long, value_enum, default_value = "in-tree")]
    oracle: Which,
    /// Print one JSON document on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// Also check the pipeline-creation rules (Vulkan VUID-RuntimeSpirv-*,
    /// e.g. shaped graph interfaces) for this graph entry point. They are
    /// not module validity; a file then passes only if a pipeline may be
    /// created for ENTRY as well.
    #[arg(long, value_name = "ENTRY")]
    pipeline: Option<String>,
}

fn parse_env(s: &str) -> Result<TargetEnv, String> {
    s.parse::<TargetEnv>().map_err(|e| e.to_string())
}

fn parse_profile(s: &str) -> Result<Profile, String> {
    Profile::from_name(s.trim())
        .ok_or_else(|| format!("unknown profile or extension (known: {})", Profile::ALL.map(|p| p.name()).join(", ")))
}

impl Args {
    fn options(&self) -> ValidateOptions {
        let mut profiles = self.profiles.clone().unwrap_or_else(|| Profile::ALL.to_vec());
        profiles.retain(|p| !self.no_profile.contains(p));
        let level = match self.level {
            LevelArg::EightK => Level::EightK,
            LevelArg::None => Level::None,
        };
        ValidateOptions { target_env: self.target_env, level, profiles, pipeline: self.pipeline.clone() }
    }
}

/// The outcome for one file.
struct FileResult {
    in_tree: Option<Report>,
    spirv_val: Option<Judged>,
}

impl FileResult {
    fn valid(&self) -> bool {
        self.in_tree.as_ref().is_none_or(Report::is_valid) && self.spirv_val.as_ref().is_none_or(Judged::accepts)
    }

    /// Whether the file passes: valid, and a pipeline possible when one was
    /// asked for (spirv-val has no pipeline rules; only the in-tree report says).
    fn passes(&self) -> bool {
        self.valid() && self.in_tree.as_ref().and_then(Report::pipeline_ok).unwrap_or(true)
    }
}

fn words_of(path: &Path, bytes: &[u8]) -> Vec<u32> {
    // Undecodable files still go to spirv-val as little-endian words (it
    // reports their header problems itself); decodable ones in host order.
    match input::decode(path, bytes).ok().and_then(|m| m.encode_words().ok()) {
        Some(w) => w,
        None => bytes.chunks(4).map(|c| c.iter().rev().fold(0u32, |a, &b| (a << 8) | u32::from(b))).collect(),
    }
}

/// Validates every file.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let options = args.options();
    if options.pipeline.is_some() && args.oracle == Which::SpirvVal {
        bail!("--pipeline needs the in-tree validator (spirv-val has no pipeline-creation rules): use --oracle in-tree or both");
    }
    let validator = Validator::new(options.clone());
    let spirv_val = match args.oracle {
        Which::InTree => None,
        Which::SpirvVal | Which::Both => {
            let sv = SpirvVal::discover();
            sv.available().context("--oracle needs spirv-val")?;
            Some(sv)
        }
    };
    let mut results = Vec::new();
    for path in &args.files {
        let bytes = input::read_bytes(path)?;
        let in_tree = (args.oracle != Which::SpirvVal).then(|| validator.check_bytes(&bytes));
        let spirv_val = match &spirv_val {
            Some(sv) => {
                let words = words_of(path, &bytes);
                let verdict = sv.validate(&words, &options)?;
                Some(match &in_tree {
                    Some(report) => Judged::new(sv, &words, report, verdict),
                    None => Judged::alone(verdict),
                })
            }
            None => None,
        };
        results.push((path, FileResult { in_tree, spirv_val }));
    }
    if args.json {
        let files: Vec<Value> = results.iter().map(|(p, r)| json_file(p, r)).collect();
        let doc = json!({
            "target_env": options.target_env,
            "level": match options.level { Level::EightK => "8k", Level::None => "none" },
            "profiles": options.profiles.iter().map(|p| p.name()).collect::<Vec<_>>(),
            "pipeline": options.pipeline,
            "files": files,
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        for (path, r) in &results {
            print_file(path, r);
        }
    }
    let invalid = results.iter().filter(|(_, r)| !r.passes()).count();
    if invalid > 0 {
        if !args.json && results.len() > 1 {
            let what = if options.pipeline.is_some() { "invalid or without a pipeline" } else { "invalid" };
            eprintln!("{invalid} of {} file(s) {what}", results.len());
        }
        Ok(Outcome::CheckFailed)
    } else {
        Ok(Outcome::Success)
    }
}

fn location(file: &str, word: Option<usize>, instruction: Option<&str>) -> String {
    let mut s = file.to_string();
    if let Some(w) = word {
        s.push_str(&format!(": word {w}"));
    }
    if let Some(i) = instruction {
        s.push_str(&format!(": {i}"));
    }
    s
}

/// Prints an in-tree report's diagnostics (`FILE: word N: <instruction>:
/// [rule] message`), each broken rule's text and what was not checked: the
/// one wording every command uses for the validator's verdict.
pub fn print_report(path: &Path, report: &Report) {
    let file = path.display().to_string();
    for f in &report.findings {
        let label = match f.severity {
            Severity::MustReject => "",
            Severity::MayAccept => "warning: ",
            Severity::Pipeline => "pipeline: ",
        };
        eprintln!("{}: {label}[{}] {}", location(&file, f.word_offset, f.instruction.as_deref()), f.rule, f.message);
    }
    for rule in report.rules() {
        let info = rule.info();
        eprintln!(
            "{file}: note: [{}] {} ({}; {}; follows {}): {}",
            info.name,
            info.severity.label(),
            info.source.name(),
            info.reference,
            rule.provenance().follows,
            info.spec
        );
    }
    for n in &report.not_checked {
        eprintln!("{file}: note: not checked: {n}");
    }
}

fn print_file(path: &Path, r: &FileResult) {
    let file = path.display().to_string();
    if let Some(report) = &r.in_tree {
        print_report(path, report);
    }
    if let Some(Verdict::Invalid(ds)) = r.spirv_val.as_ref().map(|j| &j.verdict) {
        for d in ds {
            let guess = d.rule.map(|g| format!(" (rule: {g})")).unwrap_or_default();
            eprintln!("{}: [spirv-val] {}{guess}", location(&file, d.word_offset, d.instruction.as_deref()), d.message);
        }
    }
    let mut verdict = if r.valid() { "valid".to_string() } else { "invalid".to_string() };
    if let Some(report) = &r.in_tree {
        let (e, w) = (report.errors().count(), report.warnings().count());
        if e + w > 0 {
            verdict.push_str(&format!(" ({e} error(s), {w} warning(s))"));
        }
    }
    if let Some(p) = r.in_tree.as_ref().and_then(|report| report.pipeline.as_ref().map(|p| (report, p))) {
        let (report, p) = p;
        let rules: Vec<String> = report.pipeline_findings().map(|f| f.rule.to_string()).collect();
        let state = if !p.found {
            "no such graph entry point".to_string()
        } else if !report.is_valid() {
            "not possible (the module is invalid)".to_string()
        } else if rules.is_empty() {
            "possible".to_string()
        } else {
            format!("refused ({})", dedup(rules).join(", "))
        };
        verdict.push_str(&format!("; pipeline for \"{}\": {state}", p.entry_point));
    }
    if let (Some(report), Some(sv)) = (&r.in_tree, &r.spirv_val) {
        if report.is_valid() != sv.verdict.is_valid() {
            let (a, b) = (
                if report.is_valid() { "accepts" } else { "rejects" },
                if sv.verdict.is_valid() { "accepts" } else { "rejects" },
            );
            verdict.push_str(&format!("; the in-tree validator {a} it but spirv-val {b} it"));
        }
        if let Some(doc) = sv.documented() {
            verdict.push_str(&format!(" (documented: {})", doc.finding));
        }
    }
    println!("{file}: {verdict}");
}

/// `v` without repeats, in first-seen order.
fn dedup(v: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for x in v {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

fn json_diagnostic(d: &Diagnostic) -> Value {
    json!({ "rule": d.rule, "message": d.message, "word_offset": d.word_offset, "instruction": d.instruction })
}

fn json_file(path: &Path, r: &FileResult) -> Value {
    let mut v = json!({ "file": path.display().to_string(), "valid": r.valid() });
    if let Some(ok) = r.in_tree.as_ref().and_then(Report::pipeline_ok) {
        v["pipeline_ok"] = json!(ok);
    }
    if let Some(report) = &r.in_tree {
        let rules: serde_json::Map<String, Value> = report
            .rules()
            .into_iter()
            .map(|rule: RuleId| {
                let i = rule.info();
                (
                    i.name.to_string(),
                    json!({
                        "severity": i.severity.label(),
                        "source": i.source.name(),
                        "reference": i.reference,
                        "spec": i.spec,
                        "spirv_val_checks": i.spirv_val_checks,
                        "follows": rule.provenance().follows,
                        "spirv_val_main": rule.provenance().spirv_val_main,
                    }),
                )
            })
            .collect();
        v["in_tree"] = json!({
            "valid": report.is_valid(),
            "findings": report.findings,
            "not_checked": report.not_checked,
            "rules": rules,
            "pipeline": report.pipeline,
        });
    }
    if let Some(sv) = &r.spirv_val {
        let diags: Vec<Value> = match &sv.verdict {
            Verdict::Valid => Vec::new(),
            Verdict::Invalid(ds) => ds.iter().map(json_diagnostic).collect(),
        };
        v["spirv_val"] = json!({ "valid": sv.verdict.is_valid(), "diagnostics": diags, "documented": sv.documented() });
    }
    v
}

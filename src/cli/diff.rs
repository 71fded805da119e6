//! `spvgraph diff FILE... [--oracles LIST] [--input F]... [--graph-constant ID=F]... [--entry NAME] [--json]`:
//! one module through every oracle, one judgement, a table of answers and
//! disagreements.
//!
//! Exit status: 0 every oracle agrees, 1 some disagree (a crash counts),
//! 2 usage or I/O error. A backend that crashes is an answer, never a crash
//! of `spvgraph diff`.

use super::hunt::oracle_config;
use super::Outcome;
use anyhow::{anyhow, bail};
use spvgraph::diff::{diff_module, DiffInputs, DiffReport, InputSource};
use spvgraph::hunt::oracles::OracleSet;
use spvgraph_ir::env::TargetEnv;
use spvgraph_oracle::oracle::Oracle;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Arguments of `diff`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// SPIR-V module files (`.spv`), or TOSA MLIR files (`.mlir`), which the
    /// producer among the oracles (model-converter) converts first.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The oracles, comma-separated (in-tree, spirv-val, tosa-ref,
    /// emulation-layer, model-converter, iree); default: every available one.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    oracles: Option<Vec<String>>,
    /// Input `.npy` files in InputIndex order (tensor arrays in ElementIndex
    /// order); default: the case manifest next to the module, else generated.
    #[arg(long = "input", value_name = "IN.npy")]
    inputs: Vec<PathBuf>,
    /// Graph-constant data as `ID=FILE.npy` (GraphConstantID), repeatable.
    #[arg(long = "graph-constant", value_name = "ID=FILE.npy")]
    graph_constants: Vec<String>,
    /// The graph entry point to run (default: the first).
    #[arg(long)]
    entry: Option<String>,
    /// Target environment for the validators (default: the manifest's, else vulkan1.3).
    #[arg(long, value_parser = |s: &str| s.parse::<TargetEnv>().map_err(|e| e.to_string()))]
    target_env: Option<TargetEnv>,
    /// Where an oracle's backend is, NAME=DIR (repeatable); also SPVGRAPH_ORACLE_PATH_<NAME>.
    #[arg(long = "oracle-path", value_name = "NAME=DIR")]
    oracle_paths: Vec<String>,
    /// Time limit of one backend run, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    timeout: f64,
    /// Write each executor's outputs as DIR/ORACLE/out<j>.npy (the in-tree
    /// executor's under DIR/in-tree; with several files, under
    /// DIR/<file stem>/ORACLE), to look at them.
    #[arg(long, value_name = "DIR")]
    save_outputs: Option<PathBuf>,
    /// Print one JSON document on stdout instead of the table.
    #[arg(long)]
    json: bool,
}

fn parse_constant(spec: &str) -> anyhow::Result<(u32, PathBuf)> {
    let (id, file) = spec.split_once('=').ok_or_else(|| anyhow!("--graph-constant {spec:?}: expected ID=FILE.npy"))?;
    let id: u32 =
        id.trim().parse().map_err(|_| anyhow!("--graph-constant {spec:?}: {id:?} is not a GraphConstantID"))?;
    Ok((id, PathBuf::from(file)))
}

/// Runs `diff`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let config = oracle_config(&args.oracle_paths, args.timeout)?;
    let set = OracleSet::build(args.oracles.as_deref(), &config, &BTreeMap::new())?;
    let oracles: Vec<Arc<dyn Oracle>> = set.all();
    if oracles.is_empty() {
        bail!("no oracle can run");
    }
    let given = DiffInputs {
        entry: args.entry.clone(),
        inputs: args.inputs.clone(),
        graph_constants: args.graph_constants.iter().map(|s| parse_constant(s)).collect::<Result<_, _>>()?,
        target_env: args.target_env,
        save_outputs: args.save_outputs.clone(),
    };
    let mut reports = Vec::new();
    for file in &args.files {
        // With several files, each one's outputs go under DIR/<file stem>/.
        let mut given = given.clone();
        if let (Some(dir), true) = (&args.save_outputs, args.files.len() > 1) {
            given.save_outputs = Some(dir.join(file.file_stem().unwrap_or(file.as_os_str())));
        }
        reports.push(diff_module(file, &oracles, &given)?);
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&reports)?);
    } else {
        for (name, why) in &set.unavailable {
            eprintln!("note: {name} is not available: {why}");
        }
        for r in &reports {
            print!("{}", table(r));
        }
    }
    let disagree = reports.iter().any(|r| r.disagreements.iter().any(|d| d.documented.is_none()));
    Ok(if disagree { Outcome::CheckFailed } else { Outcome::Success })
}

fn table(r: &DiffReport) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let _ = writeln!(t, "{}: expected {}", r.file, r.expect);
    if let Some(e) = &r.entry {
        let source = match &r.inputs {
            InputSource::Files => "from --input".to_string(),
            InputSource::Manifest(m) => format!("from {m}"),
            InputSource::Generated { attempts } => {
                format!("generated ({attempts} attempt(s) to keep every result defined)")
            }
            InputSource::None => "none".to_string(),
        };
        let _ = writeln!(t, "  entry point {e}, inputs {source}");
    }
    for n in &r.notes {
        let _ = writeln!(t, "  note: {n}");
    }
    for (name, answer) in &r.answers {
        let version = r.versions.get(name.trim_end_matches(" executor")).map_or("", String::as_str);
        let text = serde_json::to_value(answer).map(|v| summarize(&v)).unwrap_or_default();
        let _ = writeln!(t, "  {name:<22} {text}  [{version}]");
    }
    if r.disagreements.is_empty() {
        let _ = writeln!(t, "  every oracle agrees");
    }
    for d in &r.disagreements {
        let doc = if d.documented.is_some() { " (documented)" } else { "" };
        // A disagreement charged to no oracle (checker-disagrees-with-reference) says so.
        let who = if d.oracles.is_empty() { "no oracle".to_string() } else { d.oracles.join(",") };
        let _ = writeln!(t, "  DISAGREE {} [{}] {who}{doc}: {}", d.kind, d.severity.name(), d.detail);
    }
    t
}

fn summarize(v: &serde_json::Value) -> String {
    let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
    let first = |s: String| s.lines().next().unwrap_or("").chars().take(160).collect::<String>();
    match v["answer"].as_str() {
        Some("valid") => "accepts".into(),
        Some("invalid") => format!("rejects: {}", first(v["diagnostics"][0].as_str().unwrap_or("").to_string())),
        Some("outputs") => format!("outputs {}", v["outputs"]),
        Some("refused") => format!("refuses ({}): {}", s("kind"), first(s("reason"))),
        Some("abnormal") => format!("{}: {}", s("how"), first(s("detail"))),
        Some("error") => format!("error: {}", first(s("error"))),
        _ => v.to_string(),
    }
}

//! `spvgraph diff FILE... [--oracles LIST] [--input F]... [--graph-constant ID=F]... [--entry NAME] [--json]`:
//! one module through every oracle, one judgement, a table of answers and
//! disagreements.
//!
//! Exit status: 0 when every disagreement is documented (or a note: outside
//! a tool's contract), 1 when one is not (a crash counts), 2 usage or I/O
//! error. A backend that crashes is an answer, never a crash of `spvgraph diff`.
//!
//! Lines: `DISAGREE` for an undocumented disagreement, or the documented bug
//! of the file itself (a corpus finding); `KNOWN` for another documented bug
//! the case meets; `NOTE` for what is outside a tool's contract; `UNJUDGED`
//! for elements the referee's own output fails (charged to no oracle).

use super::hunt::oracle_config;
use super::Outcome;
use anyhow::{anyhow, bail};
use spvgraph::diff::{diff_module, DiffInputs, DiffReport, InputSource, Shown};
use spvgraph::hunt::oracles::OracleSet;
use spvgraph_ir::env::TargetEnv;
use spvgraph_oracle::oracle::Oracle;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Arguments of `diff`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// SPIR-V module files (`.spv`), or TOSA networks: MLIR (`.mlir`) or
    /// flatbuffers (`.tosa`, read back by tosa-opt), either possibly `.xz`
    /// or `.gz`, which the producer among the oracles (model-converter)
    /// converts first; a network's manifest next to it (`NET.json`) gives its
    /// inputs, and the producer its graph constants.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The oracles, comma-separated (in-tree, spirv-val, spirv-val@sdk,
    /// tosa-ref, emulation-layer, vulkan, model-converter, iree,
    /// model-explorer); default: every available one.
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
    /// Time limit of one backend run, in seconds of CPU time (a run that waits is killed after three times as long on the clock);
    /// default 60, or 300 when a FILE is a network (`.tosa`, `.mlir`), whose graphs backends compile for minutes.
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Write each executor's outputs as DIR/ORACLE/out<j>.npy (the in-tree
    /// executor's under DIR/in-tree; with several files, under
    /// DIR/<file stem>/ORACLE), to look at them.
    #[arg(long, value_name = "DIR")]
    save_outputs: Option<PathBuf>,
    /// What the module is expected to be: `valid`, `invalid` or a
    /// must-reject rule (default: the case manifest's; without one, the
    /// in-tree validator's verdict, and the table says so).
    #[arg(long, value_name = "valid|invalid|RULE")]
    expect: Option<String>,
    /// Judge what consumers (backends that read SPIR-V) do with an invalid
    /// module as a finding; by default it is a note (undefined behaviour).
    #[arg(long)]
    strict_consumers: bool,
    /// Turn the adapters' documented work-arounds off (the consumers'
    /// single entry point, debug info stripped, shared outputs not run), to
    /// see the bugs they hide.
    #[arg(long)]
    no_workarounds: bool,
    /// Also run a valid module in N equivalent forms on every backend
    /// (`form-differs` when a backend answers one differently); 26 runs every form that applies.
    #[arg(long, value_name = "N", default_value_t = 0)]
    forms: usize,
    /// Run a valid module a backend refuses or dies on again in a form
    /// without the constructs backends are known to refuse.
    #[arg(long)]
    rescue: bool,
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
    let networks = args.files.iter().any(|f| spvgraph::networks::graph_format(f).is_some());
    let timeout = args.timeout.unwrap_or(if networks { spvgraph::networks::TIMEOUT_SECS } else { 60.0 });
    let mut config = oracle_config(&args.oracle_paths, timeout)?;
    config.workarounds = !args.no_workarounds;
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
        expect: args.expect.clone(),
        strict_consumers: args.strict_consumers,
        forms: args.forms,
        rescue: args.rescue,
    };
    if let Some(e) = &args.expect {
        spvgraph::diff::parse_expect(e)?;
    }
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
    let disagree = reports.iter().any(DiffReport::fails);
    Ok(if disagree { Outcome::CheckFailed } else { Outcome::Success })
}

fn table(r: &DiffReport) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let _ = writeln!(t, "{}: expected {} (from {})", r.file, r.expect, r.expect_source);
    if let Some(e) = &r.entry {
        let source = match &r.inputs {
            InputSource::Files => "from --input".to_string(),
            InputSource::Manifest(m) => format!("from {m}"),
            InputSource::Network(m) => format!("the network's fixed inputs ({m})"),
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
    for c in &r.coverage {
        let _ = writeln!(t, "  judged: {c}");
        for d in &c.details {
            let _ = writeln!(t, "    unjudged: {d}");
        }
    }
    if !r.seconds.is_empty() {
        let times: Vec<String> = r.seconds.iter().map(|(n, s)| format!("{n} {s:.1} s")).collect();
        let _ = writeln!(t, "  time: {}", times.join(", "));
    }
    if r.disagreements.is_empty() {
        let _ = writeln!(t, "  every oracle agrees");
    }
    for d in &r.disagreements {
        // A disagreement charged to no oracle (checker-disagrees-with-reference) says so.
        let who = if d.oracles.is_empty() { "no oracle".to_string() } else { d.oracles.join(",") };
        // The label and what documents it come first: details run over several lines.
        let (label, doc) = match r.shown(d) {
            Shown::Disagree => ("DISAGREE", String::new()),
            Shown::OwnBug => ("DISAGREE", " (documented: this finding)".to_string()),
            Shown::Known(finding) => ("KNOWN", format!(" (documented: {finding})")),
            Shown::Note => ("NOTE", String::new()),
            Shown::Unjudged => ("UNJUDGED", String::new()),
        };
        let _ = writeln!(t, "  {label} {} [{}] {who}{doc}: {}", d.kind, d.severity.name(), d.detail);
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
        Some("read") => format!("reads {} graph(s), {} node(s)", v["graphs"], v["nodes"]),
        Some("produced") => format!("produces a module of {} words", v["words"]),
        _ => v.to_string(),
    }
}

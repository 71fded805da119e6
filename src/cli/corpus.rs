//! `spvgraph corpus build|check|add`: the regression corpus.
//!
//! ```text
//! spvgraph corpus build                                    # corpus/valid: every operator × type row, every construct
//! spvgraph corpus check --validator spirv-val              # accept valid/, pipeline/; reject invalid/
//! spvgraph corpus check --executor emulation-layer --junit el.xml
//! spvgraph corpus check --validator 'my-val --env {target_env} {spv}'
//! spvgraph corpus check --executor 'my-run {spv} {entry_point} {inputs:--input} --out {out_dir}' --profiles PRO-FP
//! spvgraph corpus check --executor iree --networks          # also the real networks of corpus/networks/
//! spvgraph corpus add OUT/findings/SLUG                    # promote a hunt finding
//! ```
//!
//! `check` exit status: 0 every case passed (or was skipped), 1 some case
//! failed or crashed, 2 usage error.

use super::Outcome;
use anyhow::{bail, Context};
use spvgraph::corpus::build::{self, BuildOptions};
use spvgraph::corpus::check::{self, CheckOptions, Implementation, Role};
use spvgraph::corpus::networks as corpus_networks;
use spvgraph::corpus::template::TemplateOracle;
use spvgraph::corpus::{add, cases};
use spvgraph::hunt::oracles::OracleSet;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::external::tosa_reference::TosaReferenceModel;
use spvgraph_oracle::oracle::{Capability, Oracle};
use spvgraph_oracle::registry::{self, OracleConfig};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `corpus`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand, Debug)]
enum Sub {
    /// Write corpus/valid's operator × type row and construct cases with
    /// their expected outputs (in-tree executor, confirmed by the TOSA
    /// reference model where it runs the graph).
    Build(BuildArgs),
    /// Run a validator or an executor on every case and judge it.
    Check(CheckArgs),
    /// Promote a hunt finding directory into corpus/findings/.
    Add(AddArgs),
}

#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// The folder to write.
    #[arg(short, long, default_value = "corpus/valid")]
    out: PathBuf,
    /// Operators (grammar names, comma-separated; default all 66).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    ops: Option<Vec<String>>,
    /// Base seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Leave out the construct (graph shape) cases.
    #[arg(long)]
    no_constructs: bool,
    /// Do not confirm expected outputs with the TOSA reference model.
    #[arg(long)]
    no_reference: bool,
    /// Generation attempts per row.
    #[arg(long, default_value_t = 200)]
    attempts: u64,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// A validator: a registry oracle name (spirv-val, in-tree) or a command
    /// template with {spv} and {target_env}; exit status 0 accepts.
    #[arg(
        long,
        value_name = "CMD",
        conflicts_with_all = ["executor", "reader"],
        required_unless_present_any = ["executor", "reader"]
    )]
    validator: Option<String>,
    /// An executor: a registry oracle name (emulation-layer, tosa-ref, iree,
    /// in-tree) or a command template with {spv}, {entry_point}, {inputs},
    /// {graph_constants} and {out_dir}, writing {out_dir}/out<j>.npy.
    #[arg(long, value_name = "CMD", conflicts_with = "reader")]
    executor: Option<String>,
    /// A reader: a registry oracle name (model-explorer). Every valid case
    /// must be shown as it is (operators, edges, types, constants' values),
    /// every case answered without a crash or a hang.
    #[arg(long, value_name = "NAME")]
    reader: Option<String>,
    /// Only cases whose name (FOLDER/STEM) matches this glob.
    #[arg(long, value_name = "GLOB")]
    filter: Option<String>,
    /// Profiles and extensions the implementation has (comma-separated, or `all`).
    #[arg(long, value_name = "LIST", default_value = "all")]
    profiles: String,
    /// Write JUnit XML here.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Print the report as JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// The corpus root.
    #[arg(long, default_value = "corpus")]
    corpus: PathBuf,
    /// Time limit of one run, in seconds (a network's runs get at least
    /// 300: backends compile its graph for minutes).
    #[arg(long, default_value_t = 120)]
    timeout: u64,
    /// Parallel runs (default: the number of CPUs).
    #[arg(long)]
    jobs: Option<usize>,
    /// Also check the real networks of `corpus/networks/` (each converted by
    /// model-converter and judged as `spvgraph diff` judges it: seconds to
    /// minutes per network); a `--filter` starting with `networks/` selects
    /// networks too.
    #[arg(long)]
    networks: bool,
}

#[derive(clap::Args, Debug)]
struct AddArgs {
    /// The finding directory (OUT/findings/SLUG of spvgraph hunt).
    finding_dir: PathBuf,
    /// The findings folder.
    #[arg(long, default_value = "corpus/findings")]
    findings: PathBuf,
    /// Overwrite a finding of the same name.
    #[arg(long)]
    replace: bool,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    match args.command {
        Sub::Build(a) => run_build(a),
        Sub::Check(a) => run_check(a),
        Sub::Add(a) => {
            let written = add::add(&a.finding_dir, &a.findings, a.replace)?;
            for w in &written {
                println!("{}", w.display());
            }
            Ok(Outcome::Success)
        }
    }
}

fn run_build(a: BuildArgs) -> anyhow::Result<Outcome> {
    let ops = match &a.ops {
        None => Vec::new(),
        Some(names) => names
            .iter()
            .map(|n| TosaOp::from_name(&n.to_ascii_uppercase()).with_context(|| format!("unknown operator {n:?}")))
            .collect::<anyhow::Result<Vec<_>>>()?,
    };
    let reference = if a.no_reference {
        None
    } else {
        let model = TosaReferenceModel::discover();
        match model.available() {
            Ok(()) => Some(model),
            Err(e) => {
                eprintln!("note: expected outputs unconfirmed: {e}");
                None
            }
        }
    };
    let options = BuildOptions { out: a.out, seed: a.seed, ops, constructs: !a.no_constructs, attempts: a.attempts };
    let report = build::build(&options, reference.as_ref().map(|r| r as &dyn Oracle))?;
    for u in &report.unconfirmed {
        println!("unconfirmed: {u}");
    }
    if !report.shared.is_empty() {
        println!("constructs sharing a case: {}", report.shared.join(", "));
    }
    if !report.unreached.is_empty() {
        println!("unreached: {}", report.unreached.join(", "));
    }
    println!(
        "{} cases, {} outputs ({} confirmed by the reference model), {:.1} KiB",
        report.written.len(),
        report.outputs,
        report.confirmed,
        report.bytes as f64 / 1024.0
    );
    Ok(Outcome::Success)
}

fn run_check(a: CheckArgs) -> anyhow::Result<Outcome> {
    let (role, spec) = match (&a.validator, &a.executor, &a.reader) {
        (Some(v), None, None) => (Role::Validator, v.clone()),
        (None, Some(e), None) => (Role::Executor, e.clone()),
        (None, None, Some(r)) => (Role::Reader, r.clone()),
        _ => bail!("give one of --validator CMD, --executor CMD and --reader NAME"),
    };
    let timeout = Duration::from_secs(a.timeout);
    let implementation = if registry::is_instance_name(&spec) {
        let config = OracleConfig { timeout, ..OracleConfig::default() };
        let oracle = registry::build(&spec, &config)?;
        let needed = match role {
            Role::Validator => Capability::Validate,
            Role::Executor => Capability::Execute,
            Role::Reader => Capability::Describe,
        };
        if !oracle.capabilities().contains(&needed) {
            bail!("{spec} cannot answer as a {role:?}: it has {:?}", oracle.capabilities());
        }
        Implementation::Oracle(oracle)
    } else {
        spvgraph::corpus::template::check(&spec)?;
        Implementation::Command(spec.clone())
    };
    let profiles = check::parse_profiles(&a.profiles)?;
    let root = a.corpus.canonicalize().with_context(|| format!("{}: no corpus here", a.corpus.display()))?;
    let mut all = cases::load(&root, a.filter.as_deref())?;
    if role == Role::Executor {
        all.retain(|c| !c.manifest.expected.is_empty());
    }
    let with_networks = a.networks || a.filter.as_deref().is_some_and(|f| f.starts_with("networks/"));
    let nets = if with_networks { spvgraph::networks::list(&root, a.filter.as_deref())? } else { Vec::new() };
    if all.is_empty() && nets.is_empty() {
        bail!("no case in {} matches", root.display());
    }
    let jobs = a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Networks need the implementation shared with the producer and the referee.
    let network_timeout = timeout.max(Duration::from_secs_f64(spvgraph::networks::TIMEOUT_SECS));
    let shared: Option<Arc<dyn Oracle>> = match (&implementation, nets.is_empty()) {
        (_, true) => None,
        (Implementation::Oracle(_), false) => {
            let config = OracleConfig { timeout: network_timeout, ..OracleConfig::default() };
            Some(Arc::from(registry::build(&spec, &config)?))
        }
        (Implementation::Command(t), false) => Some(Arc::new(match role {
            Role::Validator => TemplateOracle::validator(t, check::default_limits(network_timeout)),
            Role::Executor => TemplateOracle::executor(t, check::default_limits(network_timeout)),
            Role::Reader => bail!("--reader takes a registry reader (model-explorer), not a command template"),
        })),
    };
    let options = CheckOptions { role, implementation, profiles, limits: check::default_limits(timeout), jobs };
    let mut report = if all.is_empty() { check::check_nothing(&options)? } else { check::check(&all, &options)? };
    if let Some(implementation) = shared {
        let config = OracleConfig { timeout: network_timeout, ..OracleConfig::default() };
        let names = ["in-tree", "model-converter", "tosa-ref"].map(String::from);
        let helpers = OracleSet::build(Some(&names), &config, &BTreeMap::new())?;
        let started = std::time::Instant::now();
        report.cases.extend(corpus_networks::check_networks(&nets, &implementation, role, &helpers.all()));
        report.seconds += started.elapsed().as_secs_f64();
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report.json())?);
    } else {
        print!("{}", report.text());
    }
    if let Some(path) = &a.junit {
        std::fs::write(path, report.junit()).with_context(|| format!("{}: cannot write", path.display()))?;
    }
    Ok(if report.passed() { Outcome::Success } else { Outcome::CheckFailed })
}

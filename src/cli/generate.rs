//! `spvgraph generate`: valid-by-construction graph modules with their input
//! data, TOSA MLIR and manifests; coverage reports; the spirv-val acceptance run.
//!
//! ```text
//! spvgraph generate --seed 0 --count 100 -o out/            # files per case
//! spvgraph generate --count 20000 --coverage                # type rows and consumer-breaking constructs
//! spvgraph generate --count 100000 --check-spirv-val        # rejections must be 0
//! spvgraph generate --near-valid --rule tosa.shape.output --count 10 -o bad/   # near-valid modules
//! ```
//!
//! Case `i` uses seed `S + i`, expanded into the bytes that drive the
//! generator, so any case can be regenerated alone with `--seed S+i --count 1`.
//!
//! `--near-valid` writes near-valid modules instead
//! (`spvgraph_generator::near_valid::near_valid_from_seed`): each breaks
//! exactly one must-reject rule, which the manifest records as `expect`, with
//! the mutator, what it did, the target environment and the consumer profiles
//! under `near_valid`. `--near-valid --rule R --seed S` is how `spvgraph hunt`
//! findings are reproduced.

use super::Outcome;
use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use spvgraph::generate::near_valid::{self, NearValidBatch};
use spvgraph::generate::{Batch, Tally};
use spvgraph_generator::files::Extras;
use spvgraph_generator::near_valid::{covered_pipeline_rules, covered_rules};
use spvgraph_generator::{Config, ConfigFlags, ConfigProfile};
use spvgraph_ir::rules::RuleId;
use spvgraph_oracle::registry::{self, OracleConfig};
use std::path::{Path, PathBuf};

/// Arguments of `generate`. Every configuration field can be set: from a
/// JSON file (`--config`), by the named flags below, or by `--set`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// First seed; case i uses seed SEED+i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Number of cases.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// JSON configuration (fields of spvgraph_generator::Config; absent fields keep their defaults).
    #[arg(long, value_name = "FILE", conflicts_with = "profile")]
    config: Option<PathBuf>,
    /// A named configuration instead of the default one: `network` (graphs
    /// shaped like real networks, 50-200 operators, tensors of 10^5-10^7
    /// elements); `--print-config` shows it as the JSON `--config` takes.
    #[arg(long, value_name = "NAME", value_parser = parse_profile)]
    profile: Option<ConfigProfile>,
    /// Output directory for STEM.spv, STEM.mlir, STEM.json and the .npy data (created if missing).
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    out: Option<PathBuf>,
    /// Sets any configuration field, after --config and the named flags:
    /// `--set max_nodes=20`, `--set probs.debug_info=0.5`, `--set profiles=PRO-INT,EXT-FFT`. Repeatable.
    #[arg(long = "set", value_name = "FIELD=VALUE")]
    set: Vec<String>,
    /// The configuration fields that have a flag of their own
    /// (`--ops`, `--max-nodes`, ...), from the generator's config table.
    #[command(flatten)]
    config_flags: ConfigFlags,
    /// File-name prefix: case i is written as PREFIX<seed>.spv, PREFIX<seed>.json, ...
    #[arg(long, default_value = "case_", value_name = "PREFIX")]
    prefix: String,
    /// Also write STEM.spvasm (spvgraph's disassembly).
    #[arg(long)]
    spvasm: bool,
    /// Do not write TOSA MLIR.
    #[arg(long)]
    no_mlir: bool,
    /// Print the operator x type-row coverage and the consumer-breaking
    /// constructs reached; exit 1 if a row or a construct the configuration
    /// can produce is missing.
    #[arg(long)]
    coverage: bool,
    /// Validate every module with spirv-val --target-env vulkan1.3; print the rejections; exit 1 if any.
    #[arg(long)]
    check_spirv_val: bool,
    /// Print the effective configuration as JSON and exit.
    #[arg(long)]
    print_config: bool,
    /// Write near-valid modules: each breaks exactly one must-reject rule of
    /// the catalogue, recorded as `expect` in the manifest (with the mutator
    /// and what it did under `near_valid`).
    #[arg(long, conflicts_with_all = ["coverage", "check_spirv_val"])]
    near_valid: bool,
    /// With --near-valid: the rule every case breaks (a catalogue name such as
    /// `tosa.shape.output`); default: a rule chosen from each case's seed.
    #[arg(long, value_name = "RULE", requires = "near_valid")]
    rule: Option<String>,
}

/// Runs `generate`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let config = build_config(&args)?;
    if args.print_config {
        println!("{}", serde_json::to_string_pretty(&config)?);
        return Ok(Outcome::Success);
    }
    if args.prefix.is_empty() || args.prefix.contains(['/', '\\']) {
        bail!("--prefix {:?}: must be a non-empty file-name prefix without path separators", args.prefix);
    }
    if args.near_valid {
        return run_near_valid(&args, &config);
    }
    if args.out.is_none() && !args.coverage && !args.check_spirv_val {
        bail!("nothing to do: give -o DIR, --coverage or --check-spirv-val (see spvgraph generate --help)");
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let spirv_val = if args.check_spirv_val {
        let oracle = registry::build(registry::SPIRV_VAL, &OracleConfig::default())?;
        oracle.available().map_err(|e| anyhow::anyhow!("--check-spirv-val: {e}"))?;
        Some(oracle)
    } else {
        None
    };
    let batch = Batch {
        seed: args.seed,
        count: args.count,
        config: &config,
        out: args.out.as_deref(),
        prefix: &args.prefix,
        extras: Extras { spvasm: args.spvasm, mlir: !args.no_mlir },
        validator: spirv_val.as_deref(),
    };
    let bar = progress(args.count);
    let tally = spvgraph::generate::run(&batch, &|| bar.inc(1));
    bar.finish_and_clear();
    report(&args, &config, tally, spirv_val.is_some())
}

/// Parses a `--rule` name: a rule of the catalogue that some near-valid
/// mutator breaks; with `pipeline`, a pipeline-creation rule some pipeline
/// mutator breaks is accepted too.
pub(super) fn parse_near_valid_rule(flag: &str, name: &str, pipeline: bool) -> anyhow::Result<RuleId> {
    let name = name.trim();
    let Some(rule) = RuleId::from_name(name) else {
        bail!("{flag} {name:?}: no such rule in the catalogue (see spvgraph_ir::rules; e.g. tosa.shape.output)");
    };
    if rule.is_pipeline() {
        if pipeline && covered_pipeline_rules().contains(&rule) {
            return Ok(rule);
        }
        bail!(
            "{flag} {name}: a pipeline-creation rule (Vulkan VUID-RuntimeSpirv), not module validity: modules breaking it \
             are valid{}",
            if pipeline { " and no mutator breaks it yet" } else { " (spvgraph generate --near-valid --rule writes them)" }
        );
    }
    if !rule.is_must_reject() {
        bail!("{flag} {name}: a may-accept rule (a validator may accept modules breaking it), so no near-valid module breaks it");
    }
    if !covered_rules().contains(&rule) {
        bail!("{flag} {name}: no near-valid mutator breaks this rule yet");
    }
    Ok(rule)
}

/// `generate --near-valid`: one near-valid case per seed into `-o DIR`.
fn run_near_valid(args: &Args, config: &Config) -> anyhow::Result<Outcome> {
    let Some(dir) = &args.out else { bail!("--near-valid needs -o DIR") };
    let rule = args.rule.as_deref().map(|r| parse_near_valid_rule("--rule", r, true)).transpose()?;
    if rule.is_none() && covered_rules().is_empty() {
        bail!("--near-valid: no near-valid mutator exists yet");
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let batch = NearValidBatch {
        seed: args.seed,
        count: args.count,
        config,
        rule,
        out: dir,
        prefix: &args.prefix,
        extras: Extras { spvasm: args.spvasm, mlir: !args.no_mlir },
    };
    let bar = progress(args.count);
    let t = near_valid::run(&batch, &|| bar.inc(1));
    bar.finish_and_clear();
    let last = args.seed.wrapping_add(args.count.saturating_sub(1));
    println!(
        "generated {} near-valid case(s), seeds {}..={last} into {}: {} rule(s) broken",
        t.written,
        args.seed,
        dir.display(),
        t.by_rule.len()
    );
    if !t.failed.is_empty() {
        eprintln!("{} seed(s) gave no near-valid module; first ones:", t.failed.len());
        for (seed, e) in t.failed.iter().take(10) {
            eprintln!("  seed {seed}: {e}");
        }
    }
    Ok(if t.written == 0 && args.count > 0 { Outcome::CheckFailed } else { Outcome::Success })
}

fn report(args: &Args, config: &Config, t: Tally, checked: bool) -> anyhow::Result<Outcome> {
    if let Some(e) = t.io.first() {
        bail!("{e} ({} I/O error(s) in total)", t.io.len());
    }
    let last = args.seed.wrapping_add(args.count.saturating_sub(1));
    let mut failed = false;
    let whereto = args.out.as_ref().map(|d| format!(" into {}", d.display())).unwrap_or_default();
    println!(
        "generated {} case(s), seeds {}..={last}{whereto}: {} graphs, {} TOSA instructions",
        t.cases, args.seed, t.graphs, t.nodes
    );
    if !t.internal.is_empty() {
        failed = true;
        eprintln!("{} generator invariant failure(s) (operations dropped); first ones:", t.internal.len());
        for (seed, e) in t.internal.iter().take(10) {
            eprintln!("  seed {seed}: {e}");
        }
    }
    if !t.mlir.is_empty() {
        eprintln!("warning: the MLIR printer could not print {} graph(s); first ones:", t.mlir.len());
        for (seed, e) in t.mlir.iter().take(10) {
            eprintln!("  seed {seed}: {e}");
        }
    }
    if checked {
        println!("spirv-val (vulkan1.3): {} of {} module(s) rejected", t.rejected.len(), t.cases);
        for (seed, e) in t.rejected.iter().take(10) {
            eprintln!("  seed {seed}: {e}");
        }
        failed |= !t.rejected.is_empty();
    }
    if args.coverage {
        let ops = config.usable_ops();
        print!("{}", t.coverage.report(&ops, &config.profiles));
        print!("{}", t.coverage.constructs_report(config));
        failed |= !t.coverage.missing(&ops, &config.profiles).is_empty();
        failed |= !t.coverage.missing_constructs(config).is_empty();
    }
    Ok(if failed { Outcome::CheckFailed } else { Outcome::Success })
}

/// The configuration: defaults or `--config`, then the named flags, then `--set`.
fn build_config(args: &Args) -> anyhow::Result<Config> {
    let mut c = load_config(args.config.as_deref(), args.profile)?;
    args.config_flags.apply(&mut c).map_err(|e| anyhow::anyhow!("{e}"))?;
    for s in &args.set {
        let Some((path, value)) = s.split_once('=') else { bail!("--set {s:?}: expected FIELD=VALUE") };
        c.set(path.trim(), value.trim()).map_err(|e| anyhow::anyhow!("--set: {e}"))?;
    }
    c.validate().map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?;
    Ok(c)
}

/// The configuration of `--config FILE` or `--profile NAME` (the default
/// without either), not yet validated.
pub fn load_config(path: Option<&Path>, profile: Option<ConfigProfile>) -> anyhow::Result<Config> {
    Ok(match (path, profile) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            serde_json::from_str(&text).with_context(|| format!("{}: not a generator configuration", path.display()))?
        }
        (None, Some(p)) => p.config(),
        (None, None) => Config::default(),
    })
}

/// Parses `--profile NAME`.
pub fn parse_profile(name: &str) -> Result<ConfigProfile, String> {
    ConfigProfile::from_name(name.trim()).ok_or_else(|| {
        let names: Vec<&str> = ConfigProfile::ALL.iter().map(|p| p.name()).collect();
        format!("unknown profile {name:?} (expected one of: {})", names.join(", "))
    })
}

fn progress(count: u64) -> ProgressBar {
    if count < 100 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(count);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} cases, {per_sec}, eta {eta}") {
        bar.set_style(style);
    }
    bar
}

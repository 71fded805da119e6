//! `spvgraph hunt`: parses the options, runs [`spvgraph::hunt::run`] with a
//! progress bar, prints the summary.
//!
//! ```text
//! spvgraph hunt --time 10m                        # every available oracle, all cores, seeds 0, 1, 2, ...
//! spvgraph hunt --count 20000 --seed 1000000 --out nightly
//! spvgraph hunt --time 60 --oracles in-tree,spirv-val --rule tosa.shape --near-valid-ratio 1
//! spvgraph hunt --count 500 --no-reduce                # findings as found (default: each reduced, at most --reduce-time 30 s)
//! spvgraph hunt --time 10m --sample emulation-layer=0.2 --oracle-path emulation-layer=$HOME/my-layer-build
//! spvgraph hunt --resume --time 10m --out nightly      # after a kill: from the first unfinished case
//! spvgraph hunt --profile networks --time 30m          # neighbours of the real networks of corpus/networks/
//! ```
//!
//! Exit status: 0 the hunt ran and found no new signature (none at all, or
//! only signatures already under `OUT/findings/` from an earlier run, or
//! documented ones), 1 it found at least one new signature, 2 usage or I/O
//! error.

use super::{generate, Outcome};
use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use spvgraph::hunt::networks::NetworkSeeds;
use spvgraph::hunt::oracles::{parse_sample, OracleSet};
use spvgraph::hunt::progress;
use spvgraph::hunt::reduce_finding::FindingReduction;
use spvgraph::hunt::shard::Shard;
use spvgraph::hunt::{HuntOptions, Progress};
use spvgraph_generator::near_valid::covered_rules;
use spvgraph_generator::ConfigProfile;
use spvgraph_ir::rules::RuleId;
use spvgraph_oracle::external::model_converter::ModelConverter;
use spvgraph_oracle::oracle::Oracle;
use spvgraph_oracle::registry::OracleConfig;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Arguments of `hunt`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("budget").args(["time", "count"])))]
pub struct Args {
    /// How long to hunt: seconds, or a number with s, m or h (`90`, `10m`, `8h`).
    #[arg(long, value_name = "SECS", value_parser = parse_duration)]
    time: Option<Duration>,
    /// How many cases to hunt through.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    count: Option<u64>,
    /// First seed; case i uses seed SEED+i.
    #[arg(long, default_value_t = 0, conflicts_with = "resume")]
    seed: u64,
    /// Run shard K of N of the seed range: the case indices i with
    /// i mod N = K (e.g. `--shard "$JOB_COMPLETION_INDEX/8"` in a Kubernetes
    /// Indexed Job, a CI matrix index); `spvgraph findings merge` joins the
    /// shards' output directories into what one hunt of the whole range gives.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Continue the hunt in --out where it stopped (killed, or its time was
    /// up): from the first case it had not finished, with its seed, its
    /// --count unless one is given, and the same generator settings (which
    /// must be given again: they are checked, not stored). Findings it wrote
    /// stay new.
    #[arg(long)]
    resume: bool,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "J", value_parser = clap::value_parser!(u64).range(1..=1024))]
    jobs: Option<u64>,
    /// Output directory: findings under DIR/findings/, the summary as DIR/summary.json.
    #[arg(long, value_name = "DIR", default_value = "hunt-out")]
    out: PathBuf,
    /// Share of near-valid cases (0 = only valid cases, 1 = only near-valid ones).
    #[arg(long, value_name = "F", default_value_t = 0.5, value_parser = parse_ratio)]
    near_valid_ratio: f64,
    /// Rules near-valid cases break: catalogue names or name prefixes
    /// (`tosa.shape`), repeatable or comma-separated; default: every rule a
    /// near-valid mutator breaks.
    #[arg(long = "rule", value_name = "RULE", value_delimiter = ',')]
    rules: Vec<String>,
    /// Generator configuration, JSON (fields of spvgraph_generator::Config;
    /// absent fields keep their defaults).
    #[arg(long, value_name = "FILE", conflicts_with = "profile")]
    config: Option<PathBuf>,
    /// A named generator configuration: `network` hunts through graphs
    /// shaped like real networks (see `spvgraph generate --profile network
    /// --print-config`); findings keep it as config.json. `networks` hunts
    /// through the real networks of the corpus instead (`corpus/networks/`,
    /// see --networks): every case a neighbour of one of them (its data,
    /// weights, quantization parameters, one mutation of its module, or its
    /// graph cut at an operator), all valid cases.
    #[arg(long, value_name = "NAME", value_parser = parse_hunt_profile)]
    profile: Option<HuntProfile>,
    /// With --profile networks: the networks to seed from, a glob over
    /// `networks/NAME` (`networks/*-int8`); default: every one.
    #[arg(long, value_name = "GLOB")]
    networks: Option<String>,
    /// With --profile networks: the corpus root whose `networks/` folder
    /// holds the networks.
    #[arg(long, value_name = "DIR", default_value = "corpus")]
    corpus: PathBuf,
    /// The oracles to run, comma-separated (in-tree, spirv-val, tosa-ref,
    /// emulation-layer, vulkan, model-converter, iree, model-explorer);
    /// default: every available one; `all`: every one and spirv-val@sdk, and
    /// a missing one is an error. `NAME@CHANNEL` is the oracle on an
    /// installed channel's tools (`emulation-layer@dev`), and `all@CHANNEL`
    /// every oracle the channel has a version of.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    oracles: Option<Vec<String>>,
    /// Runs an expensive oracle on a fixed share of the cases, NAME=FRACTION
    /// (repeatable), decided by seed and name alone, in place of the cases
    /// its judged-coverage map asks for (the default: a guided backend is
    /// sent first what it has not been judged on).
    #[arg(long = "sample", value_name = "NAME=F", value_parser = parse_sample)]
    samples: Vec<(String, f64)>,
    /// No guidance: every expensive oracle runs its default fixed sample
    /// (or its --sample), as hunts did before judged-coverage maps.
    #[arg(long)]
    no_guide: bool,
    /// The share of a guided backend's cases picked at random from its pool,
    /// whatever they bring (so nothing is starved for good).
    #[arg(long, value_name = "F", default_value_t = spvgraph::hunt::feed::DEFAULT_FLOOR, value_parser = parse_ratio)]
    guide_floor: f64,
    /// What a guided backend ranks its candidates by: the new cells each
    /// brings, or those cells per second of what a case of its size has
    /// cost that backend so far (smaller cases first where they bring as much).
    #[arg(long, value_name = "BY", value_enum, default_value = "cells-per-second")]
    guide_by: spvgraph::hunt::feed::GuideBy,
    /// How many candidate cases a guided backend's pool keeps; a full pool
    /// drops the one that would bring the fewest new cells.
    #[arg(long, value_name = "N", default_value_t = spvgraph::hunt::feed::DEFAULT_POOL,
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    guide_pool: u64,
    /// Where an oracle's backend is, NAME=DIR (repeatable): your own build
    /// of a driver or converter, or another release (a build tree, an install
    /// tree or a Python site-packages); also SPVGRAPH_ORACLE_PATH_<NAME>.
    /// NAME@LABEL=DIR adds it as a version of its own beside the release
    /// (name NAME@LABEL in --oracles), judged against it.
    #[arg(long = "oracle-path", value_name = "NAME=DIR")]
    oracle_paths: Vec<String>,
    /// Time limit of one backend run, in seconds of CPU time (a run that waits is killed after three times as long on the clock).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    timeout: f64,
    /// Also send near-valid cases to consumers (backends that read SPIR-V),
    /// and file what they do with an invalid module (run it, crash on it)
    /// as low-severity findings. By default they get valid cases only: a
    /// Vulkan consumer's behaviour on invalid SPIR-V is undefined.
    #[arg(long)]
    strict_consumers: bool,
    /// Equivalent forms of each valid case that each backend also runs
    /// (chosen by the case's seed, cheap ones first); a backend must answer
    /// them as it answers the case (`form-differs`). 0: none.
    #[arg(long, value_name = "N", default_value_t = spvgraph::hunt::oracles::DEFAULT_FORMS)]
    forms: usize,
    /// Do not run a valid case a backend refuses or dies on again in a form
    /// without the constructs backends are known to refuse.
    #[arg(long)]
    no_rescue: bool,
    /// Judge only each case's graph outputs, as hunts did before every
    /// operator was judged on its own: backends do not run the observed form
    /// (half the backend runs; outputs computed from approximations stay
    /// unjudged).
    #[arg(long)]
    no_observed_form: bool,
    /// Treat every documented discrepancy as unknown (a self-check of
    /// recall): its instances are new findings, each naming the documented
    /// finding it recalls, and the summary lists which documented root
    /// causes were found again, and after how long.
    #[arg(long)]
    ignore_documented: bool,
    /// No progress bar and no line per new finding (the summary is still printed).
    #[arg(long)]
    quiet: bool,
    /// Print the summary as JSON on stdout instead of the table.
    #[arg(long)]
    json: bool,
    /// Write findings as found, without reducing them.
    #[arg(long)]
    no_reduce: bool,
    /// Per new finding of a validator or the round-trip: how long the
    /// reducer may shrink its case, in seconds (the original is kept next to
    /// it as STEM.orig.*). Findings are reduced in the background while the
    /// hunt goes on; the queued ones finish after the last case.
    #[arg(long, value_name = "S", default_value_t = 30.0, value_parser = parse_seconds)]
    reduce_time: f64,
    /// Per new finding of a sampled backend or producer (every judgement runs
    /// it: IREE compiles about 2 cases/s): the reducer's budget, in seconds.
    #[arg(long, value_name = "S", default_value_t = 180.0, value_parser = parse_seconds)]
    reduce_time_slow: f64,
    /// How long the reductions still queued after the last case may go on,
    /// in seconds; findings whose turn comes later stay as found.
    #[arg(long, value_name = "S", default_value_t = 180.0, value_parser = parse_seconds)]
    reduce_tail: f64,
    /// Per case of the generator that shows a new signature: how many
    /// mutants of it (each one structure-aware mutation away, valid, drawn
    /// from its seed) run through the same oracles, to find its neighbours;
    /// one showing the same signature is counted, one showing a new
    /// signature is filed with `neighbour_of`. 0 turns them off.
    #[arg(long, value_name = "N", default_value_t = 4)]
    neighbours: usize,
    /// Testing aid: make the in-tree validator panic on the case with this seed.
    #[arg(long, hide = true, value_name = "SEED")]
    inject_panic: Vec<u64>,
}

/// What `--profile` names: a generator configuration, or the corpus's real
/// networks as seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HuntProfile {
    /// A named generator configuration.
    Generator(ConfigProfile),
    /// The real networks of the corpus, every case one's neighbour.
    Networks,
}

/// Parses `--profile NAME`.
fn parse_hunt_profile(name: &str) -> Result<HuntProfile, String> {
    if name.trim() == "networks" {
        return Ok(HuntProfile::Networks);
    }
    generate::parse_profile(name)
        .map(HuntProfile::Generator)
        .map_err(|e| format!("{e}; or networks (the corpus's real networks as seeds)"))
}

/// The networks a `--profile networks` hunt seeds from.
fn network_seeds(args: &Args) -> anyhow::Result<Arc<NetworkSeeds>> {
    let producer = ModelConverter::discover();
    producer
        .available()
        .map_err(|e| anyhow::anyhow!("--profile networks: the networks are converted by model-converter: {e}"))?;
    let corpus = args
        .corpus
        .canonicalize()
        .with_context(|| format!("--profile networks: {}: no corpus here", args.corpus.display()))?;
    let filter = args.networks.as_deref();
    let seeds = NetworkSeeds::load(&corpus, filter, &producer, spvgraph::networks::tosa_opt().as_deref())?;
    for (name, why) in &seeds.failed {
        eprintln!("note: network {name} does not load, the hunt runs without it: {why}");
    }
    if !args.quiet {
        eprintln!("hunting through neighbours of {} network(s) of {}", seeds.seeds.len(), corpus.display());
    }
    Ok(Arc::new(seeds))
}

/// Parses `90`, `90s`, `10m`, `8h`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (number, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => s.split_at(i),
        None => (s, "s"),
    };
    let n: f64 = number.parse().map_err(|_| format!("{s:?}: expected seconds, or a number with s, m or h"))?;
    let scale = match unit.trim() {
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        u => return Err(format!("{s:?}: unknown unit {u:?} (use s, m or h)")),
    };
    let secs = n * scale;
    if !(secs > 0.0 && secs < 1e9) {
        return Err(format!("{s:?}: must be a positive duration"));
    }
    Ok(Duration::from_secs_f64(secs))
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(f) if f > 0.0 && f < 1e9 => Ok(f),
        _ => Err(format!("{s:?}: must be a positive number of seconds")),
    }
}

fn parse_ratio(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("{s:?}: must be a number from 0 to 1")),
    }
}

/// The rules near-valid cases break, in catalogue order.
fn select_rules(names: &[String]) -> anyhow::Result<Vec<RuleId>> {
    let covered = covered_rules();
    let names: Vec<&str> = names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()).collect();
    if names.is_empty() {
        return Ok(covered);
    }
    let mut out = Vec::new();
    for n in names {
        if RuleId::from_name(n).is_some() {
            out.push(generate::parse_near_valid_rule("--rule", n, false)?);
            continue;
        }
        let matching: Vec<RuleId> = covered.iter().copied().filter(|r| r.name().starts_with(n)).collect();
        if matching.is_empty() {
            bail!(
                "--rule {n:?}: neither a rule of the catalogue nor the prefix of a rule some near-valid mutator \
                 breaks ({} rules have mutators)",
                covered.len()
            );
        }
        out.extend(matching);
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The oracle configuration from `--oracle-path` and `--timeout`.
pub fn oracle_config(paths: &[String], timeout: f64) -> anyhow::Result<OracleConfig> {
    let mut config = OracleConfig::default();
    for p in paths {
        config.set_path(p)?;
    }
    if !(timeout > 0.0 && timeout < 1e6) {
        bail!("--timeout {timeout}: must be a positive number of seconds");
    }
    config.timeout = Duration::from_secs_f64(timeout);
    Ok(config)
}

/// The progress bar and the line printed per new finding.
struct Bar {
    bar: ProgressBar,
    time: Option<Duration>,
    start: Instant,
    quiet: bool,
}

impl Bar {
    fn new(args: &Args) -> Bar {
        let bar = if args.quiet {
            ProgressBar::hidden()
        } else {
            let (bar, template) = match args.count {
                Some(n) => (ProgressBar::new(n), "{bar:20} {pos}/{len} cases, eta {eta}, {msg}"),
                None => (ProgressBar::new(1000), "{bar:20} {msg}"),
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
            bar
        };
        Bar { bar, time: args.time, start: Instant::now(), quiet: args.quiet }
    }
}

impl Progress for Bar {
    fn tick(&self, done: u64, occurrences: u64, signatures: u64) {
        let elapsed = self.start.elapsed();
        let rate = done as f64 / elapsed.as_secs_f64().max(1e-3);
        let findings = format!("{occurrences} findings ({signatures} signatures)");
        match self.time {
            None => {
                self.bar.set_position(done);
                self.bar.set_message(format!("{rate:.0}/s, {findings}"));
            }
            Some(t) => {
                let frac = (elapsed.as_secs_f64() / t.as_secs_f64()).clamp(0.0, 1.0);
                self.bar.set_position((frac * 1000.0) as u64);
                let left = t.saturating_sub(elapsed).as_secs();
                self.bar.set_message(format!("{done} cases, {rate:.0}/s, {left}s left, {findings}"));
            }
        }
    }

    fn finding(&self, seed: u64, key: &str, dir: &Path, documented: bool) {
        if self.quiet {
            return;
        }
        let what = if documented { "documented discrepancy" } else { "new finding" };
        let line = format!("{what} (seed {seed}): {key} -> {}", dir.display());
        // A hidden bar (stderr not a terminal) prints nothing.
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    fn note(&self, line: &str) {
        if self.quiet {
            return;
        }
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }
}

/// A name for this run: the time it started, the process and, for a
/// shard, which one. Shards of one hunt start together on machines of their
/// own, often as the same process id in a fresh container, and
/// `findings merge` counts occurrences by run name: the shard keeps their
/// names apart.
fn run_id(shard: Option<Shard>) -> String {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let base = format!("{}-{}", t.as_secs(), std::process::id());
    match shard.filter(|s| !s.is_whole()) {
        Some(s) => format!("{base}-shard-{}-of-{}", s.index, s.of),
        None => base,
    }
}

/// Runs the hunt.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    if !args.resume && args.time.is_none() && args.count.is_none() {
        bail!("hunt needs --time or --count (or --resume)");
    }
    let generator_profile = match args.profile {
        Some(HuntProfile::Generator(p)) => Some(p),
        Some(HuntProfile::Networks) | None => None,
    };
    if args.networks.is_some() && args.profile != Some(HuntProfile::Networks) {
        bail!("--networks selects the networks of --profile networks: give --profile networks too");
    }
    let networks = match args.profile {
        Some(HuntProfile::Networks) => Some(network_seeds(&args)?),
        Some(HuntProfile::Generator(_)) | None => None,
    };
    let config = generate::load_config(args.config.as_deref(), generator_profile)?;
    config.validate().map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?;
    let rules = select_rules(&args.rules)?;
    if rules.is_empty() && args.near_valid_ratio > 0.0 {
        eprintln!("warning: no near-valid mutator exists yet: every case is a valid one");
    }
    let oracle_config = oracle_config(&args.oracle_paths, args.timeout)?;
    let samples: BTreeMap<String, f64> = args.samples.iter().cloned().collect();
    let mut oracles = OracleSet::build_with(args.oracles.as_deref(), &oracle_config, &samples, !args.no_guide)?;
    oracles.strict_consumers = args.strict_consumers;
    oracles.forms = args.forms;
    oracles.rescue = !args.no_rescue;
    for (name, why) in &oracles.unavailable {
        eprintln!("note: {name} is not available, the hunt runs without it: {why}");
    }
    let jobs = match args.jobs {
        Some(j) => j as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let options = HuntOptions {
        time: args.time,
        count: args.count,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        seed: args.seed,
        start: 0,
        run_id: String::new(),
        jobs,
        out: args.out.clone(),
        // A network's neighbours are valid cases (near-valid ones come from the generator).
        near_valid_ratio: if networks.is_some() { 0.0 } else { args.near_valid_ratio },
        rules,
        config,
        // A network case is no generator case: no configuration to keep.
        config_from_file: args.config.is_some() || generator_profile.is_some(),
        oracles,
        inject_panic: args.inject_panic.clone(),
        documented: spvgraph_oracle::judge::DocumentedPolicy::ignoring(args.ignore_documented),
        observe: !args.no_observed_form,
        neighbours: args.neighbours,
        guide_floor: args.guide_floor,
        guide_by: args.guide_by,
        guide_pool: args.guide_pool as usize,
        networks,
        reduce: (!args.no_reduce).then(|| FindingReduction {
            time_limit: Duration::from_secs_f64(args.reduce_time),
            slow_time_limit: Duration::from_secs_f64(args.reduce_time_slow),
            jobs,
            tail: Duration::from_secs_f64(args.reduce_tail),
        }),
    };
    let (seed, start, count, run_id) = if args.resume {
        let plan = spvgraph::hunt::plan_digest(&options);
        let p = progress::resume_point(&args.out, &plan, args.shard, args.count, args.time.is_some())?;
        eprintln!(
            "resuming the hunt in {}: seed {}, from case {} (seed {})",
            args.out.display(),
            p.seed,
            p.start,
            p.seed.wrapping_add(p.start)
        );
        (p.seed, p.start, p.count, p.run)
    } else {
        (args.seed, 0, args.count, run_id(args.shard))
    };
    let options = HuntOptions { seed, start, count, run_id, ..options };
    if count.is_some_and(|c| start >= c) {
        eprintln!("note: the hunt in {} has run every one of its {} cases", args.out.display(), start);
    }
    let bar = Bar::new(&args);
    let report = spvgraph::hunt::run(&options, &bar)?;
    bar.bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report.summary)?);
    } else {
        print!("{}", report.table);
    }
    if let Some(first) = report.errors.first() {
        bail!("{first} ({} error(s) writing findings or running workers)", report.errors.len());
    }
    Ok(if report.new_signatures > 0 { Outcome::CheckFailed } else { Outcome::Success })
}

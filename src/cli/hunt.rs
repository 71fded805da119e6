//! `spvgraph hunt`: the bug hunt. For a time or a number of cases, on every
//! core, generate valid and near-valid cases, run the round-trip, the
//! in-tree validator and spirv-val on each, and write every disagreement
//! with the expectation as a finding under `OUT/findings/`.
//!
//! ```text
//! spvgraph hunt --time 10m                        # all cores, seeds 0, 1, 2, ...
//! spvgraph hunt --count 20000 --seed 1000000 --out nightly
//! spvgraph hunt --time 60 --rule tosa.shape --near-valid-ratio 1   # only near-valid tosa.shape.* cases
//! ```
//!
//! Case `i` uses seed `S + i`. Whether it is valid or near-valid, and which
//! rule a near-valid case breaks, is decided from the seed alone
//! ([`hunt_check::Hunter::plan`]), so every finding is reproduced by one
//! `spvgraph generate --seed N [--near-valid --rule R]` command, which the
//! finding records. Checks and disagreement kinds are in [`hunt_check`];
//! signatures and the finding files in [`hunt_findings`].
//!
//! Exit status: 0 the hunt ran and found no new signature (none at all, or
//! only signatures already under `OUT/findings/` from an earlier run), 1 it
//! found at least one new signature, 2 usage or I/O error.

use super::hunt_check::{install_panic_hook, CaseOutcome, Hunter, Kind, RoundTrip, SpirvValOutcome, Subject};
use super::hunt_findings::{KindTotals, Recorded, Signature, Store, StoreContext};
use super::{generate, Outcome};
use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use spvgraph_generator::near_valid::covered_rules;
use spvgraph_generator::Config;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tools::Tools;
use spvgraph_oracle::external::spirv_val::{Backend, SpirvVal};
use spvgraph_oracle::oracle::Oracle;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Arguments of `hunt`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("budget").required(true).args(["time", "count"])))]
pub struct Args {
    /// How long to hunt: seconds, or a number with s, m or h (`90`, `10m`, `8h`).
    #[arg(long, value_name = "SECS", value_parser = parse_duration)]
    time: Option<Duration>,
    /// How many cases to hunt through.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    count: Option<u64>,
    /// First seed; case i uses seed SEED+i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
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
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Do not run spirv-val (the round-trip and the in-tree validator still run).
    #[arg(long)]
    no_spirv_val: bool,
    /// No progress bar and no line per new finding (the summary is still printed).
    #[arg(long)]
    quiet: bool,
    /// Print the summary as JSON on stdout instead of the table.
    #[arg(long)]
    json: bool,
    /// Testing aid: make the in-tree validator panic on the case with this seed.
    #[arg(long, hide = true, value_name = "SEED")]
    inject_panic: Vec<u64>,
}

fn parse_duration(s: &str) -> Result<Duration, String> {
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

fn load_config(path: Option<&PathBuf>) -> anyhow::Result<Config> {
    let config: Config = match path {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            serde_json::from_str(&text).with_context(|| format!("{}: not a generator configuration", path.display()))?
        }
        None => Config::default(),
    };
    config.validate().map_err(|e| anyhow::anyhow!("invalid configuration: {e}"))?;
    Ok(config)
}

/// spirv-val, unless disabled or missing (an error under `CI=true`).
fn spirv_val(args: &Args) -> anyhow::Result<(Option<SpirvVal>, String)> {
    if args.no_spirv_val {
        return Ok((None, "not run (--no-spirv-val)".into()));
    }
    let sv = SpirvVal::discover();
    match sv.available() {
        Ok(()) => {
            let how = match sv.backend() {
                Ok(Backend::Library(p)) => {
                    format!("in process ({}, {})", p.display(), sv.library_version().unwrap_or_default())
                }
                Ok(Backend::Process(p)) => {
                    eprintln!(
                        "note: libSPIRV-Tools-shared.so was not found; spirv-val runs as a process per case (slow)"
                    );
                    format!("as a process ({})", p.display())
                }
                Err(e) => e.to_string(),
            };
            Ok((Some(sv), how))
        }
        Err(e) if Tools::required() => {
            bail!("{e}; CI=true makes a missing oracle an error (--no-spirv-val hunts without spirv-val)")
        }
        Err(e) => {
            eprintln!("warning: {e}");
            eprintln!("warning: hunting WITHOUT the spirv-val oracle (--no-spirv-val silences this warning)");
            Ok((None, format!("not run (unavailable: {e})")))
        }
    }
}

/// Counts over the cases one worker ran.
#[derive(Clone, Debug, Default)]
struct Stats {
    cases: u64,
    valid: u64,
    near_valid: u64,
    unavailable: u64,
    no_module: u64,
    in_tree: [u64; 3],
    spirv_val: [u64; 4],
    roundtrip: [u64; 4],
    /// Per rule: near-valid cases made, planned but unavailable.
    per_rule: BTreeMap<RuleId, [u64; 2]>,
    /// Disagreements (occurrences).
    disagreements: u64,
}

impl Stats {
    fn add(&mut self, o: &CaseOutcome) {
        self.cases += 1;
        match (&o.subject, o.planned_rule) {
            (Subject::Valid(_), _) => self.valid += 1,
            (Subject::NearValid(_), _) => self.near_valid += 1,
            (Subject::Nothing, _) if o.unavailable.is_some() => self.unavailable += 1,
            (Subject::Nothing, None) => self.valid += 1,
            (Subject::Nothing, Some(_)) => self.near_valid += 1,
        }
        if o.words.is_none() && o.unavailable.is_none() {
            self.no_module += 1;
        }
        if let Some(r) = o.planned_rule {
            let e = self.per_rule.entry(r).or_default();
            if o.unavailable.is_some() {
                e[1] += 1;
            } else {
                e[0] += 1;
            }
        }
        if o.words.is_some() {
            self.in_tree[match &o.in_tree {
                Some(it) if it.valid() => 0,
                Some(_) => 1,
                None => 2,
            }] += 1;
            self.spirv_val[match &o.spirv_val {
                SpirvValOutcome::Valid => 0,
                SpirvValOutcome::Invalid(_) => 1,
                SpirvValOutcome::Error(_) => 2,
                SpirvValOutcome::NotRun => 3,
            }] += 1;
            self.roundtrip[match &o.roundtrip {
                RoundTrip::Identical => 0,
                RoundTrip::Differs(_) => 1,
                RoundTrip::Undecodable(_) => 2,
                RoundTrip::NotRun => 3,
            }] += 1;
        }
        self.disagreements += o.disagreements.len() as u64;
    }

    fn merge(&mut self, o: &Stats) {
        self.cases += o.cases;
        self.valid += o.valid;
        self.near_valid += o.near_valid;
        self.unavailable += o.unavailable;
        self.no_module += o.no_module;
        for i in 0..3 {
            self.in_tree[i] += o.in_tree[i];
        }
        for i in 0..4 {
            self.spirv_val[i] += o.spirv_val[i];
            self.roundtrip[i] += o.roundtrip[i];
        }
        for (r, c) in &o.per_rule {
            let e = self.per_rule.entry(*r).or_default();
            e[0] += c[0];
            e[1] += c[1];
        }
        self.disagreements += o.disagreements;
    }
}

/// What the workers share.
struct Shared<'a> {
    hunter: Hunter<'a>,
    store: &'a Store,
    next: AtomicU64,
    done: AtomicU64,
    limit: u64,
    deadline: Option<Instant>,
    bar: ProgressBar,
    quiet: bool,
}

fn worker(sh: &Shared<'_>) -> Stats {
    let mut stats = Stats::default();
    loop {
        if sh.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let index = sh.next.fetch_add(1, Ordering::Relaxed);
        if index >= sh.limit {
            break;
        }
        let outcome = sh.hunter.run(index);
        stats.add(&outcome);
        for d in &outcome.disagreements {
            if let Recorded::New(path, documented) = sh.store.record(&outcome, d) {
                if !sh.quiet {
                    let what = if documented { "documented discrepancy" } else { "new finding" };
                    let sig = Signature::of(d);
                    let line = format!("{what} (seed {}): {} -> {}", outcome.seed, sig.key(), path.display());
                    // A hidden bar (stderr not a terminal) prints nothing.
                    if sh.bar.is_hidden() {
                        eprintln!("{line}");
                    } else {
                        sh.bar.println(line);
                    }
                }
            }
        }
        sh.done.fetch_add(1, Ordering::Relaxed);
    }
    stats
}

fn progress_bar(args: &Args) -> ProgressBar {
    if args.quiet {
        return ProgressBar::hidden();
    }
    let (bar, template) = match args.count {
        Some(n) => (ProgressBar::new(n), "{bar:20} {pos}/{len} cases, eta {eta}, {msg}"),
        None => (ProgressBar::new(1000), "{bar:20} {msg}"),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// Runs the hunt.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let config = load_config(args.config.as_ref())?;
    let rules = select_rules(&args.rules)?;
    if rules.is_empty() && args.near_valid_ratio > 0.0 {
        eprintln!("warning: no near-valid mutator exists yet: every case is a valid one");
    }
    let (spirv_val, spirv_val_how) = spirv_val(&args)?;
    let findings_dir = args.out.join("findings");
    let config_json = if args.config.is_some() { Some(serde_json::to_string_pretty(&config)? + "\n") } else { None };
    let store =
        Store::open(&findings_dir, StoreContext { config_json: config_json.clone(), spirv_val: spirv_val.is_some() })?;
    let known_before = store.known();
    let jobs = match args.jobs {
        Some(j) => j as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    install_panic_hook();
    let start = Instant::now();
    let shared = Shared {
        hunter: Hunter {
            config: &config,
            ratio: args.near_valid_ratio,
            rules: &rules,
            spirv_val: spirv_val.as_ref(),
            base_seed: args.seed,
            inject_panic: &args.inject_panic,
        },
        store: &store,
        next: AtomicU64::new(0),
        done: AtomicU64::new(0),
        limit: args.count.unwrap_or(u64::MAX),
        deadline: args.time.map(|t| start + t),
        bar: progress_bar(&args),
        quiet: args.quiet,
    };
    let mut stats = Stats::default();
    let mut worker_failures = Vec::new();
    std::thread::scope(|s| -> anyhow::Result<()> {
        let mut handles = Vec::new();
        for k in 0..jobs {
            let h = std::thread::Builder::new()
                .name(format!("hunt-{k}"))
                .stack_size(64 << 20)
                .spawn_scoped(s, || worker(&shared))
                .context("cannot start a worker thread")?;
            handles.push(h);
        }
        while !handles.iter().all(|h| h.is_finished()) {
            std::thread::sleep(Duration::from_millis(100));
            update_bar(&shared, &store, args.time, start);
        }
        for h in handles {
            match h.join() {
                Ok(st) => stats.merge(&st),
                Err(_) => worker_failures.push("a worker thread panicked outside the guarded components".to_string()),
            }
        }
        Ok(())
    })?;
    shared.bar.finish_and_clear();
    let elapsed = start.elapsed();
    store.finish();
    let summary = summary_json(&args, &stats, &store, jobs, elapsed, known_before, &spirv_val_how, &rules);
    let summary_path = args.out.join("summary.json");
    std::fs::write(&summary_path, format!("{}\n", serde_json::to_string_pretty(&summary)?))
        .with_context(|| format!("cannot write {}", summary_path.display()))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print!("{}", table(&args, &stats, &store, jobs, elapsed, &spirv_val_how));
    }
    let mut errors = store.errors();
    errors.extend(worker_failures);
    if let Some(first) = errors.first() {
        bail!("{first} ({} error(s) writing findings or running workers)", errors.len());
    }
    let new: u64 = store.totals().values().map(|t| t.new).sum();
    Ok(if new > 0 { Outcome::CheckFailed } else { Outcome::Success })
}

fn update_bar(sh: &Shared<'_>, store: &Store, time: Option<Duration>, start: Instant) {
    let done = sh.done.load(Ordering::Relaxed);
    let totals = store.totals();
    let occurrences: u64 = totals.values().map(|t| t.occurrences).sum();
    let signatures: u64 = totals.values().map(|t| t.signatures).sum();
    let elapsed = start.elapsed();
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-3);
    let findings = format!("{occurrences} findings ({signatures} signatures)");
    match time {
        None => {
            sh.bar.set_position(done);
            sh.bar.set_message(format!("{rate:.0}/s, {findings}"));
        }
        Some(t) => {
            let frac = (elapsed.as_secs_f64() / t.as_secs_f64()).clamp(0.0, 1.0);
            sh.bar.set_position((frac * 1000.0) as u64);
            let left = t.saturating_sub(elapsed).as_secs();
            sh.bar.set_message(format!("{done} cases, {rate:.0}/s, {left}s left, {findings}"));
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn summary_json(
    args: &Args,
    st: &Stats,
    store: &Store,
    jobs: usize,
    elapsed: Duration,
    known_before: usize,
    spirv_val_how: &str,
    rules: &[RuleId],
) -> Value {
    let secs = elapsed.as_secs_f64();
    let totals = store.totals();
    let by_kind: serde_json::Map<String, Value> = totals
        .iter()
        .map(|(k, t)| {
            let v = json!({
                "occurrences": t.occurrences,
                "signatures": t.signatures,
                "new": t.new,
                "documented": t.documented,
            });
            (k.name().to_string(), v)
        })
        .collect();
    let signatures: Vec<Value> = store
        .seen()
        .into_iter()
        .map(|(key, slug, kind, count, status)| {
            json!({
                "signature": key,
                "kind": kind.name(),
                "dir": store.dir().join(slug),
                "occurrences": count,
                "status": status,
            })
        })
        .collect();
    let per_rule: serde_json::Map<String, Value> = st
        .per_rule
        .iter()
        .map(|(r, c)| (r.name().to_string(), json!({ "cases": c[0], "unavailable": c[1] })))
        .collect();
    let last = (st.cases > 0).then(|| args.seed.wrapping_add(st.cases - 1));
    json!({
        "cases": st.cases,
        "seeds": { "first": args.seed, "last": last },
        "valid": st.valid,
        "near_valid": st.near_valid,
        "near_valid_unavailable": st.unavailable,
        "elapsed_s": (secs * 1000.0).round() / 1000.0,
        "cases_per_s": if secs > 0.0 { ((st.cases as f64 / secs) * 10.0).round() / 10.0 } else { 0.0 },
        "jobs": jobs,
        "near_valid_ratio": args.near_valid_ratio,
        "near_valid_rules": rules.len(),
        "oracles": {
            "in_tree": { "accept": st.in_tree[0], "reject": st.in_tree[1], "not_run": st.in_tree[2] },
            "spirv_val": {
                "how": spirv_val_how,
                "accept": st.spirv_val[0],
                "reject": st.spirv_val[1],
                "error": st.spirv_val[2],
                "not_run": st.spirv_val[3],
            },
            "roundtrip": {
                "identical": st.roundtrip[0],
                "differs": st.roundtrip[1],
                "undecodable": st.roundtrip[2],
                "not_run": st.roundtrip[3],
            },
        },
        "findings": {
            "dir": store.dir(),
            "occurrences": st.disagreements,
            "signatures": totals.values().map(|t| t.signatures).sum::<u64>(),
            "new_signatures": totals.values().map(|t| t.new).sum::<u64>(),
            "documented_signatures": totals.values().map(|t| t.documented).sum::<u64>(),
            "known_before": known_before,
            "by_kind": by_kind,
            "list": signatures,
        },
        "per_rule": per_rule,
    })
}

fn table(args: &Args, st: &Stats, store: &Store, jobs: usize, elapsed: Duration, spirv_val_how: &str) -> String {
    use std::fmt::Write as _;
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { st.cases as f64 / secs } else { 0.0 };
    let mut t = String::new();
    let seeds = match st.cases {
        0 => "no seeds".to_string(),
        n => format!("seeds {}..={}", args.seed, args.seed.wrapping_add(n - 1)),
    };
    let _ = writeln!(t, "hunt: {} cases in {secs:.1} s on {jobs} job(s): {rate:.1} cases/s ({seeds})", st.cases);
    let _ = writeln!(t);
    let _ = writeln!(t, "{:<34}{:>10}", "cases", "count");
    let _ = writeln!(t, "  {:<32}{:>10}", "valid", st.valid);
    let _ = writeln!(t, "  {:<32}{:>10}", "near-valid", st.near_valid);
    let _ = writeln!(t, "  {:<32}{:>10}", "near-valid, no applicable case", st.unavailable);
    let _ = writeln!(t);
    let _ = writeln!(t, "{:<24}{:>10}{:>10}{:>10}{:>10}", "oracle", "accept", "reject", "error", "not run");
    let _ = writeln!(
        t,
        "  {:<22}{:>10}{:>10}{:>10}{:>10}",
        "in-tree validator", st.in_tree[0], st.in_tree[1], 0, st.in_tree[2]
    );
    let _ = writeln!(
        t,
        "  {:<22}{:>10}{:>10}{:>10}{:>10}",
        "spirv-val", st.spirv_val[0], st.spirv_val[1], st.spirv_val[2], st.spirv_val[3]
    );
    let _ = writeln!(
        t,
        "  {:<22}{:>10}{:>10}{:>10}{:>10}",
        "round-trip", st.roundtrip[0], st.roundtrip[1], 0, st.roundtrip[3]
    );
    let _ = writeln!(
        t,
        "  (round-trip: accept = identical, reject = differs; {} near-valid module(s) do not decode)",
        st.roundtrip[2]
    );
    let _ = writeln!(t, "  (spirv-val: {spirv_val_how})");
    let _ = writeln!(t);
    let totals = store.totals();
    let _ = writeln!(
        t,
        "{:<34}{:>12}{:>12}{:>6}{:>12}",
        "findings by kind", "occurrences", "signatures", "new", "documented"
    );
    for kind in Kind::ALL {
        let k = totals.get(&kind).copied().unwrap_or_default();
        let _ = writeln!(
            t,
            "  {:<32}{:>12}{:>12}{:>6}{:>12}",
            kind.name(),
            k.occurrences,
            k.signatures,
            k.new,
            k.documented
        );
    }
    let sum = |f: fn(&KindTotals) -> u64| totals.values().map(f).sum::<u64>();
    let (occ, sigs, new, doc) = (sum(|k| k.occurrences), sum(|k| k.signatures), sum(|k| k.new), sum(|k| k.documented));
    let _ = writeln!(t, "  {:<32}{:>12}{:>12}{:>6}{:>12}", "total", occ, sigs, new, doc);
    let _ = writeln!(t);
    let _ = writeln!(
        t,
        "{sigs} distinct signature(s): {new} new, {doc} documented spirv-val discrepancies, {} known from earlier \
         runs; findings in {}",
        sigs - new - doc,
        store.dir().display()
    );
    for (key, slug, _, count, status) in store.seen() {
        let _ = writeln!(t, "  {status:<10} {count:>7}x  {key}\n{:>23}{}", "-> ", store.dir().join(slug).display());
    }
    t
}

//! `spvgraph bench-backends`: what an expensive backend judges per second
//! of its own time and per minute of hunt, on one seed range, with the path
//! before amortization and guidance and the path now, side by side in one
//! run.
//!
//! Each backend is measured alone (the in-tree oracles beside it, and the
//! TOSA reference model as the referee only), through the same library
//! hunt as `spvgraph hunt`, in four variants that differ by switches only:
//!
//! * `before`: every valid case (a fixed sample of 1), every case's forms,
//!   the adapters' amortizations off ([`OracleConfig::amortize`]) — the
//!   path as it was before backends were amortized and guided;
//! * `fixed`: every valid case, amortizations on — what the adapters gain;
//! * `guided-by-cells`: the judged-coverage map chooses cases and forms by
//!   the new cells they bring, whatever they cost
//!   ([`feed::GuideBy::Cells`]), amortizations on — the guided path before
//!   it weighed cost;
//! * `guided`: the same map, by new cells per second of the backend's time
//!   ([`feed::GuideBy::CellsPerSecond`]) — the hunt's default.
//!
//! Every variant starts at the same seed and runs for the same time, so
//! the judged-cell counts compare guided and fixed spending on one budget.

use crate::hunt::oracles::{OracleSet, SetupError};
use crate::hunt::{feed, HuntOptions, Silent};
use serde_json::{json, Value};
use spvgraph_oracle::registry::{OracleConfig, IN_TREE, TOSA_REF};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// One way of running a backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Variant {
    /// Every case, every form, no amortization: the path before.
    Before,
    /// Every case, amortized.
    Fixed,
    /// Guided by the judged-coverage map's new cells alone, amortized.
    GuidedByCells,
    /// Guided by new cells per second of the backend, amortized: the default.
    Guided,
}

impl Variant {
    /// Every variant, in the order they run.
    pub const ALL: [Variant; 4] = [Variant::Before, Variant::Fixed, Variant::GuidedByCells, Variant::Guided];

    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Before => "before",
            Variant::Fixed => "fixed",
            Variant::GuidedByCells => "guided-by-cells",
            Variant::Guided => "guided",
        }
    }

    /// Parses [`Variant::name`].
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// The backends, by registry name.
    pub backends: Vec<String>,
    /// The variants, each run once per backend.
    pub variants: Vec<Variant>,
    /// The first seed of every run.
    pub seed: u64,
    /// How long each run hunts.
    pub time: Duration,
    /// Worker threads of each run's first phase.
    pub jobs: usize,
    /// Where each run's findings and summary go (`OUT/BACKEND/VARIANT`).
    pub out: PathBuf,
    /// Time limit of one backend run.
    pub timeout: Duration,
    /// Equivalent forms per case (as `spvgraph hunt --forms`).
    pub forms: usize,
}

/// One run's figures, read from its summary.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Measured {
    /// The backend.
    pub backend: String,
    /// The variant.
    pub variant: &'static str,
    /// Valid cases it answered.
    pub cases: u64,
    /// Its own time, in seconds.
    pub busy_s: f64,
    /// Cases per second of its own time.
    pub cases_per_busy_s: f64,
    /// Valid cases judged at every operator.
    pub judged_cases: u64,
    /// Those per minute of the run.
    pub judged_cases_per_minute: f64,
    /// Cases judged at every operator per second of its own time.
    pub judged_per_busy_s: f64,
    /// Cells of its judged-coverage map.
    pub cells: u64,
    /// Where its time went (`phases_s` of the summary).
    pub phases: Value,
    /// The run's wall time, in seconds.
    pub elapsed_s: f64,
}

/// Runs every backend in every variant; returns the figures in order.
/// `progress` hears a line before each run.
pub fn run(options: &BenchOptions, progress: &dyn Fn(&str)) -> anyhow::Result<Vec<Measured>> {
    let mut out = Vec::new();
    for backend in &options.backends {
        for &variant in &options.variants {
            progress(&format!(
                "{backend}: {} for {} s from seed {}",
                variant.name(),
                options.time.as_secs(),
                options.seed
            ));
            let summary = hunt_once(options, backend, variant)?;
            out.push(measured(&summary, backend, variant));
        }
    }
    Ok(out)
}

/// The oracles of one run: the in-tree ones, the backend, and the TOSA
/// reference model as referee (a sampled backend only when it is the one
/// measured).
fn oracle_set(options: &BenchOptions, backend: &str, variant: Variant) -> Result<OracleSet, SetupError> {
    let config =
        OracleConfig { timeout: options.timeout, amortize: variant != Variant::Before, ..OracleConfig::default() };
    let mut names = vec![IN_TREE.to_string(), backend.to_string()];
    if backend != TOSA_REF {
        names.push(TOSA_REF.to_string());
    }
    let samples: BTreeMap<String, f64> = match variant {
        Variant::Before | Variant::Fixed => BTreeMap::from([(backend.to_string(), 1.0)]),
        Variant::GuidedByCells | Variant::Guided => BTreeMap::new(),
    };
    let mut set = OracleSet::build_with(Some(&names), &config, &samples, true)?;
    set.executors.retain(|m| m.has(backend));
    set.producers.retain(|m| m.has(backend));
    set.forms = options.forms;
    set.rescue = true;
    Ok(set)
}

fn hunt_once(options: &BenchOptions, backend: &str, variant: Variant) -> anyhow::Result<Value> {
    let oracles = oracle_set(options, backend, variant)?;
    let out = options.out.join(backend).join(variant.name());
    if out.exists() {
        std::fs::remove_dir_all(&out)
            .map_err(|e| anyhow::anyhow!("cannot clear {} for a new run: {e}", out.display()))?;
    }
    let hunt = HuntOptions {
        time: Some(options.time),
        count: None,
        shard: crate::hunt::shard::Shard::WHOLE,
        seed: options.seed,
        start: 0,
        run_id: format!("bench-{backend}-{}", variant.name()),
        jobs: options.jobs.max(1),
        out,
        near_valid_ratio: 0.0,
        rules: Vec::new(),
        config: spvgraph_generator::Config::default(),
        config_from_file: false,
        oracles,
        documented: spvgraph_oracle::judge::DocumentedPolicy::Known,
        inject_panic: Vec::new(),
        observe: true,
        reduce: None,
        neighbours: 0,
        guide_floor: feed::DEFAULT_FLOOR,
        guide_by: match variant {
            Variant::GuidedByCells => feed::GuideBy::Cells,
            Variant::Before | Variant::Fixed | Variant::Guided => feed::GuideBy::CellsPerSecond,
        },
        guide_pool: feed::DEFAULT_POOL as usize,
        networks: None,
    };
    Ok(crate::hunt::run(&hunt, &Silent)?.summary)
}

fn measured(s: &Value, backend: &str, variant: Variant) -> Measured {
    let o = &s["oracles"][backend];
    let j = &s["judged"]["backends"][backend];
    let busy = o["busy_s"].as_f64().unwrap_or(0.0);
    let judged = j["cases_judged_at_every_operator"].as_u64().unwrap_or(0);
    let elapsed = s["elapsed_s"].as_f64().unwrap_or(0.0);
    Measured {
        backend: backend.to_string(),
        variant: variant.name(),
        cases: o["cases"].as_u64().unwrap_or(0),
        busy_s: busy,
        cases_per_busy_s: o["cases_per_busy_s"].as_f64().unwrap_or(0.0),
        judged_cases: judged,
        judged_cases_per_minute: if elapsed > 0.0 { judged as f64 * 60.0 / elapsed } else { 0.0 },
        judged_per_busy_s: if busy > 0.0 { judged as f64 / busy } else { 0.0 },
        cells: s["judged_cells"]["backends"][backend]["cells"].as_u64().unwrap_or(0),
        phases: o["phases_s"].clone(),
        elapsed_s: elapsed,
    }
}

/// The figures as a table, each backend's variants with their ratio to
/// `before`.
pub fn table(rows: &[Measured]) -> String {
    use std::fmt::Write as _;
    let mut t = format!(
        "{:<18}{:<16}{:>7}{:>9}{:>10}{:>8}{:>10}{:>11}{:>8}{:>9}\n",
        "backend", "variant", "cases", "busy s", "cases/s", "judged", "judged/s", "judged/min", "cells", "x before"
    );
    for r in rows {
        let before = rows.iter().find(|b| b.backend == r.backend && b.variant == Variant::Before.name());
        let ratio = match before {
            Some(b) if b.judged_per_busy_s > 0.0 => format!("{:.1}", r.judged_per_busy_s / b.judged_per_busy_s),
            _ => "-".into(),
        };
        let _ = writeln!(
            t,
            "{:<18}{:<16}{:>7}{:>9.1}{:>10.2}{:>8}{:>10.2}{:>11.1}{:>8}{:>9}",
            r.backend,
            r.variant,
            r.cases,
            r.busy_s,
            r.cases_per_busy_s,
            r.judged_cases,
            r.judged_per_busy_s,
            r.judged_cases_per_minute,
            r.cells,
            ratio
        );
    }
    t.push_str(
        "(cases/s and judged/s: per second of the backend's own time; judged: cases judged at every operator; \
         x before: judged/s over the `before` variant's)\n",
    );
    t
}

/// The figures as JSON (`OUT/bench.json`).
pub fn to_json(options: &BenchOptions, rows: &[Measured]) -> Value {
    json!({
        "seed": options.seed,
        "time_s": options.time.as_secs_f64(),
        "jobs": options.jobs,
        "forms": options.forms,
        "runs": rows,
    })
}

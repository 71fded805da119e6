//! `spvgraph bench-backends`: each expensive backend's judged cases per
//! second of its own time, the path before amortization and guidance and the
//! path now, side by side on one seed range (see [`spvgraph::bench`]).
//!
//! ```text
//! spvgraph bench-backends --time 120 --seed 424242000                 # every backend, every variant
//! spvgraph bench-backends --backends iree --variants before,guided --time 300
//! ```

use super::Outcome;
use spvgraph::bench::{self, BenchOptions, Variant};
use std::path::PathBuf;
use std::time::Duration;

/// The backends measured by default: every expensive execution backend.
const DEFAULT_BACKENDS: &str = "emulation-layer,vulkan,iree,tosa-ref";

/// Arguments of `bench-backends`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The backends to measure, comma-separated registry names.
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_BACKENDS)]
    backends: Vec<String>,
    /// The variants: `before` (every case and form, no amortization),
    /// `fixed` (every case, amortized), `guided-by-cells` (guided by new
    /// cells alone), `guided` (the default hunt: new cells per second).
    #[arg(long, value_delimiter = ',', default_value = "before,fixed,guided-by-cells,guided",
          value_parser = parse_variant)]
    variants: Vec<Variant>,
    /// The first seed of every run.
    #[arg(long, default_value_t = 424_242_000)]
    seed: u64,
    /// How long each run hunts: seconds, or a number with s, m or h.
    #[arg(long, value_name = "SECS", default_value = "120", value_parser = super::hunt::parse_duration)]
    time: Duration,
    /// Worker threads of each run's first phase (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    jobs: Option<u64>,
    /// Where each run's findings and summary go (OUT/BACKEND/VARIANT), and OUT/bench.json.
    #[arg(long, value_name = "DIR", default_value = "bench-out")]
    out: PathBuf,
    /// Time limit of one backend run, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    timeout: u64,
    /// Equivalent forms per case (as `spvgraph hunt --forms`).
    #[arg(long, default_value_t = spvgraph::hunt::oracles::DEFAULT_FORMS)]
    forms: usize,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::from_name(s.trim()).ok_or_else(|| format!("{s:?}: expected before, fixed or guided"))
}

/// Runs the measurements and prints the table.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let jobs = match args.jobs {
        Some(j) => j as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let options = BenchOptions {
        backends: args.backends.iter().map(|b| b.trim().to_string()).filter(|b| !b.is_empty()).collect(),
        variants: args.variants,
        seed: args.seed,
        time: args.time,
        jobs,
        out: args.out.clone(),
        timeout: Duration::from_secs(args.timeout.max(1)),
        forms: args.forms,
    };
    let rows = bench::run(&options, &|line| eprintln!("bench: {line}"))?;
    std::fs::create_dir_all(&args.out)?;
    let path = args.out.join("bench.json");
    std::fs::write(&path, format!("{}\n", serde_json::to_string_pretty(&bench::to_json(&options, &rows))?))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    print!("{}", bench::table(&rows));
    println!("(each run's summary under {}; the figures in {})", args.out.display(), path.display());
    Ok(Outcome::Success)
}

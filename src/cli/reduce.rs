//! `spvgraph reduce`: shrink a module (and its input data) while a test
//! says it is still interesting, spirv-reduce style.
//!
//! ```text
//! spvgraph reduce IN.spv -o OUT.spv [--inputs-from MANIFEST] [--jobs J] [--seed S]
//!     [--time-limit S] [--keep-valid | --rule R] -- TEST [ARGS...]
//! spvgraph reduce --finding DIR [--jobs J] [--seed S] [--time-limit S]
//! ```
//!
//! `--finding` re-reduces a finding a hunt stored (its directory or its
//! `STEM.json`) in place, with its recorded predicate: its signature appears
//! when the case is judged again by the oracles that answered it. The
//! original stays as `STEM.orig.*`.
//!
//! TEST gets the candidate `.spv` path as its last argument; exit 0 means
//! interesting. It runs in the candidate's own directory (relative paths
//! naming existing files among TEST and its arguments are made absolute). Exit status: 0 reduced (OUT written), 1 the input is not
//! interesting to begin with (or does not break what `--keep-valid` /
//! `--rule` ask), 2 usage or I/O error.

use super::input;
use super::Outcome;
use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use spvgraph::hunt::reduce_finding;
use spvgraph::reduce::{self, ExternalTest};
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::rules::RuleId;
use spvgraph_reducer::{Candidate, Expect, Info, Progress, ReduceError};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `reduce`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The module to reduce.
    #[arg(required_unless_present = "finding", conflicts_with = "finding")]
    input: Option<PathBuf>,
    /// Where the reduced module goes; its inputs, manifest, `.spvasm` and
    /// `.mlir` are written next to it under the same stem.
    #[arg(short, long, value_name = "OUT.spv", required_unless_present = "finding", conflicts_with = "finding")]
    output: Option<PathBuf>,
    /// Re-reduce a hunt's finding (its directory or `STEM.json`) in place
    /// with its recorded predicate, keeping the original as `STEM.orig.*`.
    #[arg(long, value_name = "DIR")]
    finding: Option<PathBuf>,
    /// Testing aid (with --finding): make the in-tree validator panic on the case with this seed.
    #[arg(long, hide = true, value_name = "SEED")]
    inject_panic: Vec<u64>,
    /// The case manifest (`STEM.json`) naming the input's `.npy` data;
    /// inputs without data get zeros.
    #[arg(long, value_name = "MANIFEST")]
    inputs_from: Option<PathBuf>,
    /// Tests run at once (default: every core). The result does not depend on it.
    #[arg(long, value_name = "J", value_parser = clap::value_parser!(u64).range(1..=1024))]
    jobs: Option<u64>,
    /// 0 tries each pass's atoms in module order; other seeds in an order drawn from the seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop after this many seconds with the smallest interesting candidate so far.
    #[arg(long, value_name = "S")]
    time_limit: Option<f64>,
    /// Kill a test after this many seconds (it then counts as not interesting).
    #[arg(long, value_name = "S")]
    test_timeout: Option<f64>,
    /// Every candidate must be valid (the input too).
    #[arg(long, conflicts_with = "rule")]
    keep_valid: bool,
    /// Every candidate must break exactly this must-reject rule (the input too).
    /// Without this or --keep-valid, candidates break exactly the input's rules.
    #[arg(long, value_name = "R")]
    rule: Option<String>,
    /// Target environment of the validity check (spirv-val's names).
    #[arg(long, default_value = "vulkan1.3", value_parser = |s: &str| TargetEnv::parse(s).ok_or_else(|| format!("unknown target environment {s:?}")))]
    target_env: TargetEnv,
    /// Keep every candidate directory (printed at the end), to debug a test.
    #[arg(long)]
    keep_candidates: bool,
    /// No progress line.
    #[arg(long)]
    quiet: bool,
    /// The interestingness test and its arguments (after `--`).
    #[arg(last = true, required_unless_present = "finding", value_name = "TEST")]
    test: Vec<String>,
}

fn jobs(args: &Args) -> usize {
    args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |j| j as usize)
}

/// Runs `reduce`.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    if let Some(path) = &args.finding {
        return run_finding(path, &args);
    }
    let (Some(input), Some(output)) = (&args.input, &args.output) else {
        bail!("an input module and -o OUT.spv are needed (or --finding DIR)");
    };
    let bytes = input::read_bytes(input)?;
    let module = input::decode(input, &bytes).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut candidate = match &args.inputs_from {
        Some(m) => reduce::candidate_from_manifest(module, m)?,
        None => Candidate::new(module),
    };
    reduce::fill_missing_data(&mut candidate);
    let expect = match (&args.rule, args.keep_valid) {
        (Some(r), _) => {
            let rule = RuleId::from_name(r)
                .with_context(|| format!("--rule {r:?}: no rule of the catalogue has that name"))?;
            if !rule.is_must_reject() {
                bail!("--rule {r}: a may-accept rule; candidates are checked for the must-reject rules they break");
            }
            Expect::Rule(rule)
        }
        (None, true) => Expect::Valid,
        (None, false) => Expect::Same,
    };
    let (program, test_args) = match args.test.split_first() {
        Some((p, rest)) => (PathBuf::from(p), rest.to_vec()),
        None => bail!("no test command after --"),
    };
    let stem = input.file_stem().and_then(|s| s.to_str()).unwrap_or("candidate").to_string();
    let test = ExternalTest::new(program, test_args, &stem)?
        .with_timeout(args.test_timeout.map(Duration::from_secs_f64))
        .keep_candidates(args.keep_candidates);
    let bar = progress_bar(args.quiet);
    let options = reduce::Options {
        expect,
        target_env: args.target_env,
        jobs: jobs(&args),
        seed: args.seed,
        time_limit: args.time_limit.map(Duration::from_secs_f64),
    };
    let result = reduce::reduce_case(candidate, &options, |p| bar.set_message(progress_line(p)), |c| test.judge(c));
    bar.finish_and_clear();
    if args.keep_candidates {
        eprintln!("candidates kept in {}", test.root().display());
    }
    let reduced = match result {
        Ok(r) => r,
        Err(e @ (ReduceError::NotInteresting | ReduceError::Expectation { .. })) => {
            eprintln!("{}: {e}", input.display());
            return Ok(Outcome::CheckFailed);
        }
    };
    write_output(output, &reduced.candidate)?;
    eprintln!("{}", summary(&reduced.info));
    Ok(Outcome::Success)
}

/// `--finding`: the hunt's predicate, judged by the oracles that answered the case.
fn run_finding(path: &Path, args: &Args) -> anyhow::Result<Outcome> {
    let stored = reduce_finding::stored_case(path)?;
    let names = reduce_finding::answered_oracles(&stored);
    let set = reduce_finding::rejudging_oracles(&names)?;
    let options = reduce::Options {
        expect: Expect::Same,
        target_env: stored.case.target_env,
        jobs: jobs(args),
        seed: args.seed,
        time_limit: args.time_limit.map(Duration::from_secs_f64),
    };
    eprintln!("judging {} again with {}", stored.stem, names.join(", "));
    let bar = progress_bar(args.quiet);
    let result = reduce_finding::reduce_stored(&stored, &set, &args.inject_panic, &options, |p| {
        bar.set_message(progress_line(p))
    });
    bar.finish_and_clear();
    match result {
        Ok(r) => {
            eprintln!("{}", summary(&r.info));
            eprintln!("{}: reduced in place; the original is {}.orig.spv", stored.dir.display(), stored.stem);
            Ok(Outcome::Success)
        }
        Err(e) => match e.downcast_ref::<ReduceError>() {
            Some(ReduceError::NotInteresting | ReduceError::Expectation { .. }) => {
                eprintln!("{}: {e} (the signature {:?} does not appear again)", path.display(), stored.key);
                Ok(Outcome::CheckFailed)
            }
            _ => Err(e),
        },
    }
}

fn write_output(out: &Path, c: &Candidate) -> anyhow::Result<()> {
    let dir = reduce_finding::directory_of(out);
    let stem = out.file_stem().and_then(|s| s.to_str()).context("the output needs a file name")?;
    let written = reduce::write_reduced(&dir, stem, None, c)?;
    if written != out {
        std::fs::rename(&written, out).with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}

fn progress_bar(quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

fn progress_line(p: &Progress) -> String {
    let secs = p.elapsed.as_secs_f64().max(1e-3);
    format!(
        "{} B ({} nodes, {} instructions) from {} B; {} steps; {} tests ({:.1}/s); pass {}",
        p.current.bytes(),
        p.current.nodes,
        p.current.instructions,
        p.initial.bytes(),
        p.steps,
        p.predicate_calls,
        p.predicate_calls as f64 / secs,
        p.pass
    )
}

fn summary(info: &Info) -> String {
    format!(
        "reduced {} B ({} nodes, {} instructions) to {} B ({} nodes, {} instructions) in {:.1} s: {} steps, {} tests, \
         {} candidates turned away by the validity check, {} repeats answered from the cache{}",
        info.initial.bytes(),
        info.initial.nodes,
        info.initial.instructions,
        info.result.bytes(),
        info.result.nodes,
        info.result.instructions,
        info.elapsed.as_secs_f64(),
        info.steps,
        info.predicate_calls,
        info.invalid,
        info.cache_hits,
        if info.timed_out { " (time limit reached)" } else { "" }
    )
}

//! Reducing cases on disk: candidates to and from the corpus format, the
//! in-tree validator as the reducer's validity check, and an external
//! interestingness test run as a process (spirv-reduce's convention).
//!
//! `spvgraph reduce` uses this, and so can the hunt: [`reduce_case`] with
//! "the same signature still appears" as the predicate, then
//! [`write_reduced`] with the original kept next to the reduced case. The
//! search itself is `spvgraph_reducer`.

mod case;
mod external;

pub use case::{candidate_from_case, candidate_from_manifest, candidate_to_case, fill_missing_data, write_candidate};
pub use external::ExternalTest;

use spvgraph_generator::files::Extras;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::Module;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;
use spvgraph_reducer::{Candidate, Expect, Progress, ReduceError, Reduced, Reducer, Rules};
use std::path::Path;
use std::time::Duration;

/// The must-reject rules the in-tree validator reports for a module, under
/// `target_env` and every profile: the reducer's validity check.
pub fn validity(target_env: TargetEnv) -> impl Fn(&Module) -> Rules + Send + Sync {
    let v = Validator::new(ValidateOptions { target_env, ..ValidateOptions::default() });
    move |m: &Module| v.check(m).errors().map(|f| f.rule).collect()
}

/// How to reduce a case.
#[derive(Clone, Debug)]
pub struct Options {
    /// Which rules every candidate breaks (the input's, none, or one).
    pub expect: Expect,
    /// Target environment of the validity check.
    pub target_env: TargetEnv,
    /// Predicate calls at once.
    pub jobs: usize,
    /// Order of the atoms (0: module order).
    pub seed: u64,
    /// Stop with the best candidate so far after this long.
    pub time_limit: Option<Duration>,
}

/// Reduces `input` while `interesting` holds, every candidate checked by
/// the in-tree validator first ([`validity`]).
pub fn reduce_case(
    input: Candidate,
    options: &Options,
    progress: impl Fn(&Progress) + Send + Sync,
    interesting: impl Fn(&Candidate) -> bool + Sync,
) -> Result<Reduced, ReduceError> {
    Reducer::new()
        .validity(validity(options.target_env))
        .expect(options.expect.clone())
        .jobs(options.jobs)
        .seed(options.seed)
        .time_limit(options.time_limit)
        .on_progress(progress)
        .run(input, interesting)
}

/// Writes a reduced case into `dir` as `STEM.*` (module, `.spvasm`,
/// `.mlir`, inputs, manifest) and, when given, the original next to it as
/// `STEM.orig.*`. Returns the path of the reduced module.
pub fn write_reduced(
    dir: &Path,
    stem: &str,
    original: Option<&Candidate>,
    reduced: &Candidate,
) -> anyhow::Result<std::path::PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    let extras = Extras { spvasm: true, mlir: true };
    write_candidate(dir, stem, reduced, &extras)?;
    if let Some(o) = original {
        write_candidate(dir, &format!("{stem}.orig"), o, &extras)?;
    }
    Ok(dir.join(format!("{stem}.spv")))
}

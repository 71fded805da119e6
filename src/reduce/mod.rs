//! Reducing cases on disk: candidates to and from the corpus format, the
//! in-tree validator as the reducer's validity check, and an external
//! interestingness test run as a process (spirv-reduce's convention).
//!
//! `spvgraph reduce` and the hunt use this; the search itself is
//! `spvgraph_reducer`.

mod case;
mod external;

pub use case::{candidate_from_manifest, fill_missing_data, write_candidate};
pub use external::ExternalTest;

use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::Module;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;
use spvgraph_reducer::Rules;

/// The must-reject rules the in-tree validator reports for a module, under
/// `target_env` and every profile: the reducer's validity check.
pub fn validity(target_env: TargetEnv) -> impl Fn(&Module) -> Rules + Send + Sync {
    let v = Validator::new(ValidateOptions { target_env, ..ValidateOptions::default() });
    move |m: &Module| v.check(m).errors().map(|f| f.rule).collect()
}

//! Near-valid modules: a valid generated case with exactly one rule of the
//! catalogue (`spvgraph_ir::rules`) broken, and the rule recorded so that a
//! validator can be checked for reporting exactly it.
//!
//! Every must-reject rule has at least one [`Mutator`] ([`mutators`]).
//! Pipeline-creation rules (`Severity::Pipeline`) have their own
//! [`pipeline_mutators`]: those leave the module valid and only break what
//! a Vulkan implementation checks when it creates a data-graph pipeline for
//! an entry point, so they are never counted as near-valid module breaks
//! ([`covered_rules`] leaves them out). A mutator edits a
//! copy of a valid case through [`Edit`] and returns `None` when the case
//! has nothing it can break (no CONV2D for an inexact convolution, say);
//! the drivers then try another case, generated with the mutator's
//! configuration bias (e.g. only FFT operators for `tosa.fft.power-of-two`).
//!
//! To keep "everything else valid", TOSA mutators usually break a *dead
//! copy* of an instruction ([`Edit::dead_copy`]): its result is unused, so
//! nothing downstream inherits the break.
//!
//! ```
//! use spvgraph_generator::near_valid::{near_valid_from_seed, NearValidError};
//! use spvgraph_generator::Config;
//! use spvgraph_ir::rules::RuleId;
//! let nv = near_valid_from_seed(1, &Config::default(), Some(RuleId::LayoutMemoryModel)).expect("applicable");
//! assert_eq!(nv.rule, RuleId::LayoutMemoryModel);
//! assert!(!nv.words.is_empty());
//! ```

mod binary;
mod caps;
mod constants;
mod debuginfo;
mod edit;
mod graph;
mod ids;
mod imports;
mod interface;
mod layout;
mod tensor_functions;
mod tosa_operands;
mod tosa_shapes;
mod types;

pub use edit::{Edit, GraphSpan};
pub use tensor_functions::with_tensor_function;

use crate::{generate, prng, Case, Config};
use arbitrary::Unstructured;
use spvgraph_ir::elem::Profile;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::rules::RuleId;
use std::sync::OnceLock;

/// One way of breaking one rule.
#[derive(Clone, Copy)]
pub struct Mutator {
    /// The rule the mutation breaks (and the only one it may break).
    pub rule: RuleId,
    /// A short kebab-case name, unique per rule (`drop-memory-model`).
    pub name: &'static str,
    /// Adjusts the generator configuration so that cases it applies to are
    /// likely (restrict operators, raise a construct's probability).
    pub bias: fn(&mut Config),
    /// Breaks the rule in `edit`; `None` when the case offers nothing to break.
    pub apply: fn(&mut Edit<'_, '_>) -> Option<()>,
}

impl std::fmt::Debug for Mutator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.rule.name(), self.name)
    }
}

/// No configuration change.
pub fn no_bias(_: &mut Config) {}

/// Every mutator of a must-reject rule, grouped by rule category: each
/// makes an invalid module.
pub fn mutators() -> &'static [Mutator] {
    static ALL: OnceLock<Vec<Mutator>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut v = Vec::new();
        v.extend(binary::mutators());
        v.extend(layout::mutators());
        v.extend(ids::mutators());
        v.extend(caps::mutators());
        v.extend(types::mutators());
        v.extend(constants::mutators());
        v.extend(graph::mutators());
        v.extend(interface::mutators());
        v.extend(debuginfo::mutators());
        v.extend(tosa_operands::mutators());
        v.extend(tosa_shapes::mutators());
        v.extend(tensor_functions::mutators());
        v.extend(imports::mutators());
        v
    })
}

/// Every mutator of a pipeline-creation rule (`Severity::Pipeline`): the
/// module stays valid; a pipeline for one of its graph entry points breaks
/// the rule (`Validator::pipeline_rules` reports it).
pub fn pipeline_mutators() -> &'static [Mutator] {
    static ALL: OnceLock<Vec<Mutator>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut v = Vec::new();
        v.extend(interface::pipeline_mutators());
        v.extend(constants::pipeline_mutators());
        v
    })
}

/// The mutators of `rule` (a must-reject or a pipeline rule).
pub fn mutators_for(rule: RuleId) -> Vec<Mutator> {
    mutators().iter().chain(pipeline_mutators()).filter(|m| m.rule == rule).copied().collect()
}

/// The must-reject rules some mutator breaks, in catalogue order (what a
/// near-valid case may break; pipeline rules are not among them).
pub fn covered_rules() -> Vec<RuleId> {
    RuleId::ALL.iter().copied().filter(|r| mutators().iter().any(|m| m.rule == *r)).collect()
}

/// The pipeline rules some pipeline mutator breaks, in catalogue order.
pub fn covered_pipeline_rules() -> Vec<RuleId> {
    RuleId::ALL.iter().copied().filter(|r| pipeline_mutators().iter().any(|m| m.rule == *r)).collect()
}

/// A near-valid module: an invalid module breaking one must-reject rule,
/// or (for a pipeline rule) a valid module whose pipeline for one of its
/// graph entry points breaks that rule.
#[derive(Clone, Debug)]
pub struct NearValid {
    /// The valid case it was made from (its data still fits the module).
    pub base: Case,
    /// The broken module's words.
    pub words: Vec<u32>,
    /// The one rule it breaks (a must-reject rule, or a pipeline rule: see
    /// [`NearValid::is_pipeline_break`]).
    pub rule: RuleId,
    /// The mutator that broke it.
    pub mutator: &'static str,
    /// What the mutator did.
    pub note: String,
    /// The target environment under which the rule applies.
    pub target_env: TargetEnv,
    /// The consumer's profiles (`None` = all): set by `tosa.type.profile`.
    pub profiles: Option<Vec<Profile>>,
}

impl NearValid {
    /// Whether the module is valid and only a pipeline for one of its graph
    /// entry points breaks [`NearValid::rule`] (a `Severity::Pipeline` rule).
    pub fn is_pipeline_break(&self) -> bool {
        self.rule.is_pipeline()
    }
}

/// Why no near-valid module came out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NearValidError {
    /// The rule is may-accept or has no mutator.
    #[error("no mutator breaks rule {0} (it is may-accept or not covered yet)")]
    NoMutator(&'static str),
    /// No case tried offered anything to break.
    #[error("rule {rule}: no applicable case in {attempts} attempts")]
    NotApplicable {
        /// The rule.
        rule: &'static str,
        /// Cases tried.
        attempts: u32,
    },
    /// The generator configuration cannot generate.
    #[error("the configuration cannot generate: no usable operator")]
    Config,
}

/// Applies `mutator` to `case`, drawing choices from `bytes`.
pub fn mutate(case: &Case, mutator: &Mutator, bytes: &[u8]) -> Option<NearValid> {
    let mut edit = Edit::new(case, bytes);
    (mutator.apply)(&mut edit)?;
    let words = edit.finish_words()?;
    Some(NearValid {
        base: case.clone(),
        words,
        rule: mutator.rule,
        mutator: mutator.name,
        note: edit.note,
        target_env: edit.target_env,
        profiles: edit.profiles,
    })
}

/// Generates one near-valid module from `u`: a case, then one mutator of
/// `rule` (or of a rule chosen from `u`). Errors when the case offers
/// nothing to break; a fuzzer simply moves on.
pub fn generate_near_valid(
    u: &mut Unstructured,
    config: &Config,
    rule: Option<RuleId>,
) -> Result<NearValid, NearValidError> {
    let all = mutators();
    let chosen: Vec<Mutator> = match rule {
        Some(r) => mutators_for(r),
        None => all.to_vec(),
    };
    let first = *u.choose(&chosen).map_err(|_| NearValidError::NoMutator(rule.map_or("?", RuleId::name)))?;
    let mut cfg = config.clone();
    (first.bias)(&mut cfg);
    if cfg.validate().is_err() {
        cfg = config.clone();
    }
    let case = generate(u, &cfg).map_err(|_| NearValidError::Config)?;
    let bytes: Vec<u8> = (0..256).map(|_| u.arbitrary::<u8>().unwrap_or(0)).collect();
    let candidates = mutators_for(first.rule);
    let start = candidates.iter().position(|m| m.name == first.name).unwrap_or(0);
    for k in 0..candidates.len() {
        if let Some(nv) = mutate(&case, &candidates[(start + k) % candidates.len()], &bytes) {
            return Ok(nv);
        }
    }
    Err(NearValidError::NotApplicable { rule: first.rule.name(), attempts: 1 })
}

/// How many cases [`near_valid_from_seed`] tries before giving up.
pub const ATTEMPTS: u32 = 48;

/// The near-valid module of `seed`: deterministic, so `spvgraph generate
/// --near-valid --seed S [--rule R]` reproduces it. Without `rule`, the
/// rule is chosen from the seed among the covered ones.
pub fn near_valid_from_seed(seed: u64, config: &Config, rule: Option<RuleId>) -> Result<NearValid, NearValidError> {
    let rule = match rule {
        Some(r) => r,
        None => {
            let covered = covered_rules();
            let mut rng = prng::SplitMix64::new(seed ^ 0x6e65_6172_7661_6c69);
            match covered.get(rng.below(covered.len() as u64) as usize) {
                Some(&r) => r,
                None => return Err(NearValidError::NoMutator("?")),
            }
        }
    };
    let candidates = mutators_for(rule);
    if candidates.is_empty() {
        return Err(NearValidError::NoMutator(rule.name()));
    }
    for attempt in 0..ATTEMPTS {
        let sub = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(u64::from(attempt));
        let start = (seed.wrapping_add(u64::from(attempt)) % candidates.len() as u64) as usize;
        let mut cfg = config.clone();
        // Half the attempts use the first mutator's bias, so unbiased cases
        // are broken too, but rare constructs are still found.
        if attempt % 2 == 0 || attempt >= ATTEMPTS / 2 {
            (candidates[start].bias)(&mut cfg);
            if cfg.validate().is_err() {
                cfg = config.clone();
            }
        }
        let case_bytes = prng::seed_bytes(sub, prng::SEED_BYTES);
        let Ok(mut case) = generate(&mut Unstructured::new(&case_bytes), &cfg) else { continue };
        case.meta.seed = Some(seed);
        let edit_bytes = prng::seed_bytes(sub ^ 0x5eed, 1024);
        for k in 0..candidates.len() {
            if let Some(nv) = mutate(&case, &candidates[(start + k) % candidates.len()], &edit_bytes) {
                return Ok(nv);
            }
        }
    }
    Err(NearValidError::NotApplicable { rule: rule.name(), attempts: ATTEMPTS })
}

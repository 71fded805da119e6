//! The `graph_validator` property: the in-tree validator agrees with the
//! generator's intent, never panics, and agrees with spirv-val where the
//! rule catalogue says spirv-val checks a rule.
//!
//! For any byte string:
//! - the bytes, read as a module, are validated directly (any verdict, no panic);
//! - the bytes, read as an [`Unstructured`], drive the generator: the first
//!   byte picks a valid case (the validator must accept it) or a near-valid
//!   one (the validator must report exactly the rule the mutator broke); the
//!   next ~30 bytes draw the generator [`Config`] ([`Config::swarm`]: an
//!   operator and profile subset, sizes, constructs on or off), the rest
//!   drive generation;
//! - both verdicts on a near-valid case go through the one judgement
//!   (`spvgraph_oracle::judge`) as in the hunt: spirv-val (its in-process
//!   library only) must reject the module iff the catalogue says it checks
//!   the rule, unless the disagreement is one of the spirv-val adapter's
//!   documented discrepancies.
//!
//! Judging uses the validator's rules and offsets only
//! ([`Validator::rule_words`]); the full report with messages and
//! instruction text is built only to explain a violation.
//!
//! spirv-val is sampled: `SPVGRAPH_FUZZ_SPIRV_VAL=F` asks it about a
//! fraction `F` (0..=1, default [`DEFAULT_SPIRV_VAL_FRACTION`]) of the
//! near-valid modules, chosen by the module's hash (so a replay of the same
//! input makes the same choice), and its verdicts are cached by that hash
//! (libFuzzer's mutations often reach a module already seen).
//! `SPVGRAPH_FUZZ_SPIRV_VAL=0` leaves spirv-val out.
#![expect(clippy::panic, reason = "a property reports a violation by panicking: libFuzzer saves the input as a crash")]

use arbitrary::Unstructured;
use spvgraph_generator::near_valid::{generate_near_valid, NearValid};
use spvgraph_generator::{generate, Config};
use spvgraph_oracle::external::spirv_val::{Backend, SpirvVal};
use spvgraph_oracle::judge::{judge, DocumentedPolicy, Expectation, Observations, ValidityAnswer};
use spvgraph_oracle::oracle::{OracleError, ValidateOptions, Validator as _, Verdict};
use spvgraph_oracle::validate::{Report, Validator};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

/// The share of near-valid modules spirv-val sees when
/// `SPVGRAPH_FUZZ_SPIRV_VAL` does not say: one in ten keeps the target's
/// exec/s near the in-tree side's, and the nightly hunt asks spirv-val
/// about every case anyway.
pub const DEFAULT_SPIRV_VAL_FRACTION: f64 = 0.1;

/// Cached spirv-val verdicts kept at most (then the cache starts over).
const CACHE_LIMIT: usize = 1 << 16;

fn default_validator() -> &'static Validator {
    static V: OnceLock<Validator> = OnceLock::new();
    V.get_or_init(|| Validator::new(ValidateOptions::default()))
}

/// The spirv-val fraction from the environment (see the module docs).
pub fn spirv_val_fraction() -> f64 {
    static F: OnceLock<f64> = OnceLock::new();
    *F.get_or_init(|| match std::env::var("SPVGRAPH_FUZZ_SPIRV_VAL") {
        Ok(v) => v
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|f| !f.is_nan())
            .map_or(DEFAULT_SPIRV_VAL_FRACTION, |f| f.clamp(0.0, 1.0)),
        Err(_) => DEFAULT_SPIRV_VAL_FRACTION,
    })
}

fn spirv_val() -> Option<&'static SpirvVal> {
    static SV: OnceLock<Option<SpirvVal>> = OnceLock::new();
    SV.get_or_init(|| {
        if spirv_val_fraction() <= 0.0 {
            return None;
        }
        let sv = SpirvVal::discover();
        // Only the in-process library: a process per input would make the
        // target a spirv-val benchmark.
        matches!(sv.backend(), Ok(Backend::Library(_))).then_some(sv)
    })
    .as_ref()
}

/// What the target did on this thread so far, for rate reports
/// (`examples/exec_rate.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Inputs checked.
    pub inputs: u64,
    /// Valid cases generated and accepted.
    pub valid: u64,
    /// Near-valid cases generated and judged.
    pub near_valid: u64,
    /// Near-valid cases sampled for spirv-val.
    pub spirv_val_sampled: u64,
    /// Of those, verdicts taken from the cache.
    pub spirv_val_cached: u64,
}

thread_local! {
    static STATS: Cell<Stats> = const { Cell::new(Stats { inputs: 0, valid: 0, near_valid: 0, spirv_val_sampled: 0, spirv_val_cached: 0 }) };
    static CACHE: RefCell<HashMap<u64, Result<Verdict, OracleError>>> = RefCell::new(HashMap::new());
}

/// This thread's [`Stats`].
pub fn stats() -> Stats {
    STATS.with(Cell::get)
}

fn count(f: impl FnOnce(&mut Stats)) {
    STATS.with(|s| {
        let mut v = s.get();
        f(&mut v);
        s.set(v);
    });
}

fn show(r: &Report) -> String {
    r.errors()
        .take(5)
        .map(|f| format!("[{}] {}: {}", f.rule.name(), f.instruction.as_deref().unwrap_or("-"), f.message))
        .collect::<Vec<_>>()
        .join("\n  ")
}

/// The base of every input's swarm configuration: the defaults with smaller
/// graphs (at most 2 graphs of 6 operations, tensors of at most 2048
/// elements), since every rule is broken in small modules as well as large
/// ones and exec/s matters more here; the nightly `hunt` covers the default
/// sizes.
pub fn base_config() -> &'static Config {
    static C: OnceLock<Config> = OnceLock::new();
    C.get_or_init(|| Config { max_graphs: 2, max_nodes: 6, ..Config::default() })
}

/// Checks the property on one input; panics on a violation.
pub fn check(data: &[u8]) {
    count(|s| s.inputs += 1);
    let _ = default_validator().rule_bytes(data);

    let mut u = Unstructured::new(data);
    let near = u.arbitrary::<u8>().unwrap_or(0) & 1 == 1;
    let config = Config::swarm(&mut u, base_config());
    if near {
        if let Ok(nv) = generate_near_valid(&mut u, &config, None) {
            count(|s| s.near_valid += 1);
            check_near_valid(&nv);
        }
    } else if let Ok(case) = generate(&mut u, &config) {
        assert!(case.meta.internal_errors.is_empty(), "generator invariants: {:?}", case.meta.internal_errors);
        if !default_validator().rule(&case.module).is_valid() {
            let report = default_validator().check(&case.module);
            panic!("the validator rejects a generated (valid) module:\n  {}", show(&report));
        }
        count(|s| s.valid += 1);
    }
}

fn check_near_valid(nv: &NearValid) {
    let options = ValidateOptions::for_case(nv.target_env, nv.profiles.as_deref());
    let validator = Validator::new(options.clone());
    let rules = validator.rule_words(&nv.words).error_rules();
    if rules != [nv.rule] {
        let report = validator.check_words(&nv.words);
        panic!(
            "near-valid module for {} ({}: {}) reported as {:?}:\n  {}",
            nv.rule.name(),
            nv.mutator,
            nv.note,
            rules.iter().map(|r| r.name()).collect::<Vec<_>>(),
            show(&report)
        );
    }
    let Some(sv) = spirv_val() else { return };
    let key = module_key(&nv.words, &options);
    if !sampled(key, spirv_val_fraction()) {
        return;
    }
    count(|s| s.spirv_val_sampled += 1);
    let verdict = cached_verdict(key, || sv.validate(&nv.words, &options));
    let observations = Observations {
        validity: vec![ValidityAnswer { oracle: sv, verdict }],
        module: Some(&nv.words),
        ..Observations::default()
    };
    let expectation = Expectation::Breaks { rule: nv.rule, mutator: Some(nv.mutator.to_string()) };
    if let Some(d) =
        judge(&expectation, &observations).into_iter().find(|d| d.disposition(DocumentedPolicy::Known).counts())
    {
        panic!("{}: {} ({}: {})", d.signature().key(), d.detail, nv.mutator, nv.note);
    }
}

/// The hash of a module and the options it is validated with (the cache
/// key, and what sampling decides on).
fn module_key(words: &[u32], options: &ValidateOptions) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    words.hash(&mut h);
    options.target_env.name.hash(&mut h);
    for p in &options.profiles {
        p.name().hash(&mut h);
    }
    h.finish()
}

/// Whether a module of hash `key` is in the sampled `fraction`.
fn sampled(key: u64, fraction: f64) -> bool {
    fraction >= 1.0 || ((key >> 11) as f64 / (1u64 << 53) as f64) < fraction
}

fn cached_verdict(key: u64, ask: impl FnOnce() -> Result<Verdict, OracleError>) -> Result<Verdict, OracleError> {
    if let Some(v) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        count(|s| s.spirv_val_cached += 1);
        return v;
    }
    let v = ask();
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_LIMIT {
            c.clear();
        }
        c.insert(key, v.clone());
    });
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_takes_about_the_fraction() {
        let n = 100_000u64;
        let hits = (0..n).filter(|&i| sampled(i.wrapping_mul(0x9e37_79b9_7f4a_7c15), 0.1)).count();
        assert!((9_000..11_000).contains(&hits), "{hits} of {n}");
        assert!((0..1000u64).all(|i| sampled(i, 1.0)));
        assert!(!(0..1000u64).any(|i| sampled(i.wrapping_mul(0x9e37_79b9_7f4a_7c15), 0.0)));
    }

    #[test]
    fn the_cache_answers_a_module_seen_before() {
        let words = [0x0723_0203u32, 0x0001_0600, 0, 1, 0];
        let key = module_key(&words, &ValidateOptions::default());
        let other = module_key(&words[..4], &ValidateOptions::default());
        assert_ne!(key, other);
        let first = cached_verdict(key, || Ok(Verdict::Valid));
        let before = stats().spirv_val_cached;
        let again = cached_verdict(key, || panic!("asked again"));
        assert_eq!(first, again);
        assert_eq!(stats().spirv_val_cached, before + 1);
    }
}

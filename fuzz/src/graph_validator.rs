//! The `graph_validator` property: the in-tree validator agrees with the
//! generator's intent, never panics, and agrees with spirv-val where the
//! rule catalogue says spirv-val checks a rule.
//!
//! For any byte string:
//! - the bytes, read as a module, are validated directly (any verdict, no panic);
//! - the bytes, read as an [`Unstructured`], drive the generator: the first
//!   byte picks a valid case (the validator must accept it) or a near-valid
//!   one (the validator must report exactly the rule the mutator broke);
//! - both verdicts on a near-valid case go through the one judgement
//!   (`spvgraph_oracle::judge`) as in the hunt: when spirv-val's library is
//!   present, it must reject the module iff the catalogue says it checks
//!   the rule, unless the disagreement is one of the spirv-val adapter's
//!   documented discrepancies.
//!
//! `SPVGRAPH_FUZZ_SPIRV_VAL=0` leaves spirv-val out (for measuring the
//! in-tree side alone).

use arbitrary::Unstructured;
use spvgraph_generator::near_valid::{generate_near_valid, NearValid};
use spvgraph_generator::{generate, Config};
use spvgraph_ir::elem::Profile;
use spvgraph_oracle::external::spirv_val::{Backend, SpirvVal};
use spvgraph_oracle::judge::{judge, Expectation, Observations, ValidityAnswer};
use spvgraph_oracle::oracle::{Oracle, ValidateOptions};
use spvgraph_oracle::validate::{Report, Validator};
use std::collections::BTreeSet;
use std::sync::OnceLock;

fn default_validator() -> &'static Validator {
    static V: OnceLock<Validator> = OnceLock::new();
    V.get_or_init(|| Validator::new(ValidateOptions::default()))
}

fn spirv_val() -> Option<&'static SpirvVal> {
    static SV: OnceLock<Option<SpirvVal>> = OnceLock::new();
    SV.get_or_init(|| {
        if std::env::var("SPVGRAPH_FUZZ_SPIRV_VAL").is_ok_and(|v| v == "0") {
            return None;
        }
        let sv = SpirvVal::discover();
        // Only the in-process library: a process per input would make the
        // target a spirv-val benchmark.
        matches!(sv.backend(), Ok(Backend::Library(_))).then_some(sv)
    })
    .as_ref()
}

fn show(r: &Report) -> String {
    r.errors()
        .take(5)
        .map(|f| format!("[{}] {}: {}", f.rule.name(), f.instruction.as_deref().unwrap_or("-"), f.message))
        .collect::<Vec<_>>()
        .join("\n  ")
}

/// The generator configuration of the target: the defaults with smaller
/// graphs (at most 2 graphs of 6 operations), since every rule is broken in
/// small modules as well as large ones and exec/s matters more here; the
/// nightly `hunt` covers the default sizes.
fn fuzz_config() -> &'static Config {
    static C: OnceLock<Config> = OnceLock::new();
    C.get_or_init(|| Config { max_graphs: 2, max_nodes: 6, ..Config::default() })
}

/// Checks the property on one input; panics on a violation.
pub fn check(data: &[u8]) {
    let _ = default_validator().check_bytes(data);

    let mut u = Unstructured::new(data);
    let near = u.arbitrary::<u8>().unwrap_or(0) & 1 == 1;
    let config = fuzz_config();
    if near {
        if let Ok(nv) = generate_near_valid(&mut u, config, None) {
            check_near_valid(&nv);
        }
    } else if let Ok(case) = generate(&mut u, config) {
        assert!(case.meta.internal_errors.is_empty(), "generator invariants: {:?}", case.meta.internal_errors);
        let report = default_validator().check(&case.module);
        assert!(report.is_valid(), "the validator rejects a generated (valid) module:\n  {}", show(&report));
    }
}

fn check_near_valid(nv: &NearValid) {
    let options = ValidateOptions {
        target_env: nv.target_env,
        profiles: nv.profiles.clone().unwrap_or_else(|| Profile::ALL.to_vec()),
        ..ValidateOptions::default()
    };
    let validator = Validator::new(options.clone());
    let report = validator.check_words(&nv.words);
    let rules: BTreeSet<_> = report.errors().map(|f| f.rule).collect();
    assert!(
        rules.len() == 1 && rules.contains(&nv.rule),
        "near-valid module for {} ({}: {}) reported as {:?}:\n  {}",
        nv.rule.name(),
        nv.mutator,
        nv.note,
        rules.iter().map(|r| r.name()).collect::<Vec<_>>(),
        show(&report)
    );
    let Some(sv) = spirv_val() else { return };
    let observations = Observations {
        validity: vec![ValidityAnswer { oracle: sv, verdict: sv.validate(&nv.words, &options) }],
        ..Observations::default()
    };
    let expectation = Expectation::Breaks { rule: nv.rule, mutator: Some(nv.mutator.to_string()) };
    for d in judge(&expectation, &observations).into_iter().filter(|d| d.documented.is_none()) {
        panic!("{}: {} ({}: {})", d.signature().key(), d.detail, nv.mutator, nv.note);
    }
}

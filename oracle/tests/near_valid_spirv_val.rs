//! Differential test against spirv-val (in process): 5,000 valid generated
//! modules and 5,000+ near-valid ones (50 per covered must-reject rule).
//!
//! - A valid module must be accepted by both validators.
//! - A near-valid module is rejected by the in-tree validator (asserted
//!   rule-exactly in `near_valid.rs`); spirv-val must reject it iff the
//!   catalogue says spirv-val checks the rule. Every exception is a row of
//!   `spvgraph_oracle::external::known::SPIRV_VAL_KNOWN`, the documented table of real spirv-val discrepancies (each
//!   with a minimal module in `corpus/findings/`).
//!
//! `NEAR_VALID_RULES` and `NEAR_VALID_COUNT` work as in `near_valid.rs`;
//! `DIFF_VALID_SEEDS` sets the number of valid modules.

use spvgraph_generator::near_valid::{covered_rules, near_valid_from_seed};
use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_ir::rules::RuleId;
use spvgraph_oracle::external::known::{known_spirv_val_discrepancy, SPIRV_VAL_KNOWN};
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{Oracle, ValidateOptions, Verdict};
use spvgraph_oracle::validate::{TargetEnv, Validator};
use std::collections::BTreeMap;

fn selected(rule: RuleId) -> bool {
    match std::env::var("NEAR_VALID_RULES") {
        Ok(list) if !list.trim().is_empty() => list.split(',').any(|p| rule.name().starts_with(p.trim())),
        _ => true,
    }
}

fn env_count(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn spirv_val() -> Option<SpirvVal> {
    let sv = SpirvVal::discover();
    match sv.available() {
        Ok(()) => Some(sv),
        Err(e) => {
            assert!(!spvgraph_ir::tools::Tools::required(), "CI=true and {e}");
            eprintln!("skipping: {e}");
            None
        }
    }
}

fn first_message(v: &Verdict) -> String {
    match v {
        Verdict::Valid => "valid".into(),
        Verdict::Invalid(d) => d.first().map(|d| d.message.clone()).unwrap_or_default(),
    }
}

#[test]
fn valid_modules_are_accepted_by_both() {
    let Some(sv) = spirv_val() else { return };
    let n = env_count("DIFF_VALID_SEEDS", 5_000);
    let config = Config::default();
    let ours = Validator::new(ValidateOptions::default());
    let env = TargetEnv::VULKAN_1_3;
    let mut failures = Vec::new();
    for seed in 0..n {
        let case = generate_from_seed(seed, &config);
        let Ok(words) = case.module.encode_words() else {
            failures.push(format!("seed {seed}: does not encode"));
            continue;
        };
        let report = ours.check_words(&words);
        if !report.is_valid() {
            failures.push(format!("seed {seed}: in-tree rejects: {:?}", report.rules()));
        }
        match sv.validate_in_process(&words, env) {
            Ok(Verdict::Valid) => {}
            Ok(v) => failures.push(format!("seed {seed}: spirv-val rejects: {}", first_message(&v))),
            Err(e) => failures.push(format!("seed {seed}: spirv-val failed: {e}")),
        }
    }
    assert!(failures.is_empty(), "{} of {n} valid modules disagree:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn near_valid_verdicts_match_the_catalogue() {
    let Some(sv) = spirv_val() else { return };
    let n = env_count("NEAR_VALID_COUNT", 50);
    let config = Config::default();
    let mut total = 0;
    let mut known_hits: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for rule in covered_rules().into_iter().filter(|r| selected(*r)) {
        let checks = rule.info().spirv_val_checks;
        for seed in 0..n {
            let Ok(nv) = near_valid_from_seed(seed, &config, Some(rule)) else { continue };
            let env = nv.target_env;
            total += 1;
            let verdict = match sv.validate_in_process(&nv.words, env) {
                Ok(v) => v,
                Err(e) => {
                    failures.push(format!("{} seed {seed}: spirv-val failed: {e}", rule.name()));
                    continue;
                }
            };
            if verdict.is_valid() != checks {
                continue;
            }
            if let Some(k) = known_spirv_val_discrepancy(rule, nv.mutator).filter(|k| k.spirv_val_accepts == checks) {
                *known_hits.entry((k.rule.name(), k.mutator)).or_default() += 1;
                continue;
            }
            failures.push(format!(
                "{} seed {seed} ({}: {}): spirv-val says {} but the catalogue says spirv_val_checks = {checks}",
                rule.name(),
                nv.mutator,
                nv.note,
                first_message(&verdict)
            ));
        }
    }
    for k in SPIRV_VAL_KNOWN {
        eprintln!("known discrepancy {}/{}: {} ({})", k.rule.name(), k.mutator, k.why, k.finding);
    }
    eprintln!("{total} near-valid modules; known discrepancies seen: {known_hits:?}");
    let shown: Vec<&String> = failures.iter().take(30).collect();
    assert!(failures.is_empty(), "{} of {total} near-valid modules disagree:\n{shown:#?}", failures.len());
}

#[test]
fn every_known_discrepancy_still_reproduces() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let sv = spirv_val();
    for k in SPIRV_VAL_KNOWN {
        let name = format!("{}/{}", k.rule.name(), k.mutator);
        assert!(
            k.rule.info().spirv_val_checks == k.spirv_val_accepts,
            "{name}: a discrepancy is spirv-val accepting a rule it checks, or rejecting one it does not"
        );
        let bytes = std::fs::read(root.join(k.finding)).unwrap_or_else(|e| panic!("{name}: {}: {e}", k.finding));
        // Raw words: some findings (bad literal strings) do not decode.
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let ours = Validator::new(ValidateOptions::default()).check_words(&words);
        let rules: Vec<RuleId> = ours.errors().map(|f| f.rule).collect();
        assert!(!rules.is_empty() && rules.iter().all(|r| *r == k.rule), "{name}: in-tree reports {rules:?}");
        if let Some(sv) = &sv {
            let env = TargetEnv::VULKAN_1_3;
            let verdict = sv.validate_in_process(&words, env).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(verdict.is_valid(), k.spirv_val_accepts, "{name}: spirv-val no longer behaves as documented");
        }
    }
}

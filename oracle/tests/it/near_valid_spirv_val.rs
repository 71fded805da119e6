//! Differential test against spirv-val (in process): 5,000 valid generated
//! modules and 5,000+ near-valid ones (50 per covered must-reject rule),
//! judged by the one judgement (`spvgraph_oracle::judge`) as the hunt does.
//!
//! - A valid module must be accepted by both validators.
//! - A near-valid module must be rejected by the in-tree validator with
//!   exactly its rule, and by spirv-val iff the catalogue says spirv-val
//!   checks the rule. Every exception is a documented discrepancy of the
//!   spirv-val adapter (`Oracle::known_discrepancies`, each with a minimal
//!   module in `corpus/findings/`).
//!
//! `NEAR_VALID_RULES` and `NEAR_VALID_COUNT` work as in `near_valid.rs`;
//! `DIFF_VALID_SEEDS` sets the number of valid modules.

use spvgraph_generator::near_valid::{covered_rules, near_valid_from_seed};
use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_ir::rules::RuleId;
use spvgraph_oracle::external::known::spirv_val_accepts;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::judge::{judge, Disagreement, Expectation, Observations, ValidityAnswer};
use spvgraph_oracle::oracle::{Oracle, ValidateOptions};
use spvgraph_oracle::registry::InTree;
use spvgraph_oracle::validate::Validator;
use spvgraph_testkit::spirv_val;
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

/// Both validators' answers on `words`, judged.
fn disagreements(sv: &SpirvVal, words: &[u32], options: &ValidateOptions, expect: &Expectation) -> Vec<Disagreement> {
    let in_tree = InTree::default();
    let oracles: [&dyn Oracle; 2] = [&in_tree, sv];
    let observations = Observations {
        validity: oracles.iter().map(|o| ValidityAnswer { oracle: *o, verdict: o.validate(words, options) }).collect(),
        module: Some(words),
        ..Observations::default()
    };
    judge(expect, &observations)
}

#[test]
fn valid_modules_are_accepted_by_both() {
    let Some(sv) = spirv_val() else { return };
    let n = env_count("DIFF_VALID_SEEDS", 5_000);
    let config = Config::default();
    let options = ValidateOptions::default();
    let mut failures = Vec::new();
    for seed in 0..n {
        let case = generate_from_seed(seed, &config);
        let Ok(words) = case.module.encode_words() else {
            failures.push(format!("seed {seed}: does not encode"));
            continue;
        };
        for d in disagreements(&sv, &words, &options, &Expectation::Valid) {
            failures.push(format!("seed {seed}: {}: {}", d.signature().key(), d.detail));
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
    let mut known_hits: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for rule in covered_rules().into_iter().filter(|r| selected(*r)) {
        for seed in 0..n {
            let Ok(nv) = near_valid_from_seed(seed, &config, Some(rule)) else { continue };
            total += 1;
            let options = ValidateOptions::for_case(nv.target_env, nv.profiles.as_deref());
            let expect = Expectation::Breaks { rule, mutator: Some(nv.mutator.to_string()) };
            for d in disagreements(&sv, &nv.words, &options, &expect) {
                // The in-tree validator's exactness is near_valid.rs's subject.
                if d.oracles != ["spirv-val"] {
                    continue;
                }
                if let Some(doc) = &d.documented {
                    *known_hits.entry(doc.finding.clone()).or_default() += 1;
                    continue;
                }
                failures.push(format!("{} seed {seed} ({}: {}): {}", rule.name(), nv.mutator, nv.note, d.detail));
            }
        }
    }
    for k in sv.known_discrepancies() {
        eprintln!("known discrepancy {:?}/{:?}: {} ({})", k.rule, k.mutator, k.why, k.finding);
    }
    eprintln!("{total} near-valid modules; known discrepancies seen: {known_hits:?}");
    let shown: Vec<&String> = failures.iter().take(30).collect();
    assert!(failures.is_empty(), "{} of {total} near-valid modules disagree:\n{shown:#?}", failures.len());
}

#[test]
fn every_known_discrepancy_still_reproduces() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let sv = spirv_val();
    for k in SpirvVal::with_paths(None, None).known_discrepancies() {
        // Valid modules 2025.5 rejects break no rule; ecosystem.rs checks those rows.
        if k.kind == "rejects-valid" {
            continue;
        }
        let name = format!("{:?}/{:?}", k.rule, k.mutator);
        let rule = k.rule.unwrap_or_else(|| panic!("{name}: a spirv-val discrepancy names its rule"));
        assert!(
            rule.info().spirv_val_checks == spirv_val_accepts(k),
            "{name}: a discrepancy is spirv-val accepting a rule it checks, or rejecting one it does not"
        );
        let bytes = std::fs::read(root.join(k.finding)).unwrap_or_else(|e| panic!("{name}: {}: {e}", k.finding));
        // Raw words: some findings (bad literal strings) do not decode.
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let ours = Validator::new(ValidateOptions::default()).check_words(&words);
        let rules: Vec<RuleId> = ours.errors().map(|f| f.rule).collect();
        assert!(!rules.is_empty() && rules.iter().all(|r| *r == rule), "{name}: in-tree reports {rules:?}");
        if let Some(sv) = &sv {
            let verdict = sv.validate(&words, &ValidateOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(verdict.is_valid(), spirv_val_accepts(k), "{name}: spirv-val no longer behaves as documented");
            let expect = Expectation::Breaks { rule, mutator: k.mutator.map(str::to_string) };
            let ds = disagreements(sv, &words, &ValidateOptions::default(), &expect);
            assert!(
                ds.iter().any(|d| d.documented.as_ref().is_some_and(|doc| doc.finding == k.finding)),
                "{name}: the judgement does not mark it documented: {ds:?}"
            );
        }
    }
}

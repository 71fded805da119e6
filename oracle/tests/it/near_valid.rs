//! Near-valid modules (`spvgraph_generator::near_valid`): for every
//! must-reject rule of the catalogue, 50 seeds each give a distinct module
//! that the in-tree validator rejects with exactly that rule and nothing
//! else. For every pipeline-creation rule, 50 seeds each give a distinct
//! module that is valid and whose pipeline for some graph entry point
//! breaks exactly that rule.
//!
//! `NEAR_VALID_RULES=tosa.shape,graph.input` limits the rules (name
//! prefixes) and `NEAR_VALID_COUNT=N` changes the count while working on
//! mutators; CI runs the default (all rules, 50 each).

use spvgraph_generator::near_valid::{covered_pipeline_rules, covered_rules, near_valid_from_seed, NearValid};
use spvgraph_generator::Config;
use spvgraph_ir::rules::{RuleId, Severity};
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::{Report, Validator};
use std::collections::{BTreeSet, HashSet};

fn selected(rule: RuleId) -> bool {
    match std::env::var("NEAR_VALID_RULES") {
        Ok(list) if !list.trim().is_empty() => list.split(',').any(|p| rule.name().starts_with(p.trim())),
        _ => true,
    }
}

fn count() -> u64 {
    std::env::var("NEAR_VALID_COUNT").ok().and_then(|s| s.parse().ok()).unwrap_or(50)
}

/// The options a near-valid module is meant to be validated with.
fn options(nv: &NearValid) -> ValidateOptions {
    ValidateOptions::for_case(nv.target_env, nv.profiles.as_deref())
}

fn show(r: &Report) -> String {
    r.errors()
        .take(6)
        .map(|f| {
            format!(
                "    [{}] {} @ {:?}: {}",
                f.rule.name(),
                f.instruction.as_deref().unwrap_or("-"),
                f.word_offset,
                f.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_must_reject_rule_has_a_mutator() {
    let covered: BTreeSet<RuleId> = covered_rules().into_iter().collect();
    let missing: Vec<&str> = RuleId::ALL
        .iter()
        .filter(|r| r.severity() == Severity::MustReject && !covered.contains(r))
        .map(|r| r.name())
        .collect();
    assert!(missing.is_empty(), "{} must-reject rules have no mutator: {missing:?}", missing.len());
    let may: Vec<&str> = covered.iter().filter(|r| r.severity() != Severity::MustReject).map(|r| r.name()).collect();
    assert!(may.is_empty(), "mutators for may-accept or pipeline rules among the near-valid ones: {may:?}");
    let pipeline: BTreeSet<RuleId> = covered_pipeline_rules().into_iter().collect();
    let uncovered: Vec<&str> =
        RuleId::ALL.iter().filter(|r| r.is_pipeline() && !pipeline.contains(r)).map(|r| r.name()).collect();
    assert!(uncovered.is_empty(), "pipeline rules without a pipeline mutator: {uncovered:?}");
    let all = spvgraph_generator::near_valid::mutators();
    let names: BTreeSet<(RuleId, &str)> = all.iter().map(|m| (m.rule, m.name)).collect();
    assert_eq!(names.len(), all.len(), "mutator names must be unique per rule");
    eprintln!("{} mutators for {} must-reject rules", all.len(), covered.len());
}

#[test]
fn near_valid_modules_break_exactly_their_rule() {
    let config = Config::default();
    let n = count();
    let mut failures = Vec::new();
    let mut checked = 0;
    for rule in covered_rules().into_iter().filter(|r| selected(*r)) {
        let mut distinct = HashSet::new();
        let mut wrong = Vec::new();
        for seed in 0..n {
            let nv = match near_valid_from_seed(seed, &config, Some(rule)) {
                Ok(nv) => nv,
                Err(e) => {
                    wrong.push(format!("  seed {seed}: {e}"));
                    continue;
                }
            };
            let validator = Validator::new(options(&nv));
            let report = validator.check_words(&nv.words);
            let rules: BTreeSet<RuleId> = report.errors().map(|f| f.rule).collect();
            if rules.len() != 1 || !rules.contains(&rule) {
                wrong.push(format!(
                    "  seed {seed} ({}: {}): reported {:?}\n{}",
                    nv.mutator,
                    nv.note,
                    rules.iter().map(|r| r.name()).collect::<Vec<_>>(),
                    show(&report)
                ));
            }
            distinct.insert(nv.words);
        }
        checked += 1;
        if distinct.len() < n as usize {
            wrong.push(format!("  only {} distinct modules of {n}", distinct.len()));
        }
        if !wrong.is_empty() {
            let total = wrong.len();
            wrong.truncate(4);
            failures.push(format!("{} ({total} problems):\n{}", rule.name(), wrong.join("\n")));
        }
    }
    assert!(checked > 0 || std::env::var("NEAR_VALID_RULES").is_ok(), "no rule has a mutator");
    assert!(failures.is_empty(), "{} rules fail:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn pipeline_breaks_are_valid_modules_refused_only_a_pipeline() {
    let config = Config::default();
    let n = count();
    let mut failures = Vec::new();
    for rule in covered_pipeline_rules().into_iter().filter(|r| selected(*r)) {
        let mut distinct = HashSet::new();
        let mut wrong = Vec::new();
        for seed in 0..n {
            let nv = match near_valid_from_seed(seed, &config, Some(rule)) {
                Ok(nv) => nv,
                Err(e) => {
                    wrong.push(format!("  seed {seed}: {e}"));
                    continue;
                }
            };
            assert!(nv.is_pipeline_break());
            let validator = Validator::new(options(&nv));
            let report = validator.check_words(&nv.words);
            let module = spvgraph_ir::Module::decode_words(&nv.words).expect("decodes");
            let by_entry = validator.pipeline_rules_by_entry_point(&module);
            let rules: BTreeSet<RuleId> = by_entry.iter().flat_map(|(_, fs)| fs.iter().map(|f| f.rule)).collect();
            if !report.is_valid() || rules != BTreeSet::from([rule]) {
                wrong.push(format!(
                    "  seed {seed} ({}: {}): module errors\n{}\n  pipeline rules {:?}",
                    nv.mutator,
                    nv.note,
                    show(&report),
                    rules.iter().map(|r| r.name()).collect::<Vec<_>>()
                ));
            }
            distinct.insert(nv.words);
        }
        if distinct.len() < n as usize {
            wrong.push(format!("  only {} distinct modules of {n}", distinct.len()));
        }
        if !wrong.is_empty() {
            let total = wrong.len();
            wrong.truncate(4);
            failures.push(format!("{} ({total} problems):\n{}", rule.name(), wrong.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{} pipeline rules fail:\n{}", failures.len(), failures.join("\n"));
}

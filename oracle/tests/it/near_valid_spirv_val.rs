//! Differential test against spirv-val (in process): 5,000 valid generated
//! modules and 5,000+ near-valid ones (50 per covered must-reject rule),
//! judged by the one judgement (`spvgraph_oracle::judge`) as the hunt does.
//! Every measured SPIRV-Tools build takes part: the release channel's
//! (`spirv-val`, 2025.5) and the `sdk` channel's (`spirv-val@sdk`, v2026.3
//! as tagged for the Vulkan SDK 1.4.357.0), each judged by its own claims
//! and documented discrepancies ([`Release`]).
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
use spvgraph_oracle::external::spirv_val::known::{self, spirv_val_accepts};
use spvgraph_oracle::external::spirv_val::Release;
use spvgraph_oracle::judge::{judge, Disagreement, Expectation, Observations, ValidityAnswer};
use spvgraph_oracle::oracle::{Oracle, RuleClaim, ValidateOptions};
use spvgraph_oracle::registry::InTree;
use spvgraph_oracle::validate::Validator;
use spvgraph_testkit::registry_oracle;
use std::collections::BTreeMap;

/// The spirv-val oracle of each measured release, as the registry builds
/// them; a missing one is skipped with a notice (an error under `CI=true`).
fn validators() -> Vec<(Release, Box<dyn Oracle>)> {
    Release::ALL
        .into_iter()
        .filter_map(|release| {
            let name = match release {
                Release::V2025_5 => "spirv-val",
                Release::Sdk1_4_357 => "spirv-val@sdk",
            };
            registry_oracle(name).map(|o| (release, o))
        })
        .collect()
}

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
fn disagreements(sv: &dyn Oracle, words: &[u32], options: &ValidateOptions, expect: &Expectation) -> Vec<Disagreement> {
    let in_tree = InTree::default();
    let oracles: [&dyn Oracle; 2] = [&in_tree, sv];
    let observations = Observations {
        validity: oracles
            .iter()
            .map(|o| ValidityAnswer { oracle: *o, verdict: o.validator().and_then(|v| v.validate(words, options)) })
            .collect(),
        module: Some(words),
        ..Observations::default()
    };
    judge(expect, &observations)
}

#[test]
fn valid_modules_are_accepted_by_both() {
    let n = env_count("DIFF_VALID_SEEDS", 5_000);
    let config = Config::default();
    let options = ValidateOptions::default();
    let validators = validators();
    let mut failures = Vec::new();
    for seed in 0..n {
        let case = generate_from_seed(seed, &config);
        let Ok(words) = case.module.encode_words() else {
            failures.push(format!("seed {seed}: does not encode"));
            continue;
        };
        for (_, sv) in &validators {
            for d in disagreements(sv.as_ref(), &words, &options, &Expectation::Valid) {
                failures.push(format!("seed {seed}: {}: {}", d.signature().key(), d.detail));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {n} valid modules disagree:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn near_valid_verdicts_match_the_catalogue() {
    for (release, sv) in validators() {
        eprintln!("== {} ({})", sv.name(), release.label());
        near_valid_verdicts_of(sv.as_ref());
    }
}

/// Every near-valid module judged against `sv`'s claims: what it does not
/// do as claimed must be one of its documented discrepancies.
fn near_valid_verdicts_of(sv: &dyn Oracle) {
    let n = env_count("NEAR_VALID_COUNT", 50);
    let config = Config::default();
    let mut total = 0;
    let mut known_hits: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut undocumented: BTreeMap<String, usize> = BTreeMap::new();
    for rule in covered_rules().into_iter().filter(|r| selected(*r)) {
        for seed in 0..n {
            let Ok(nv) = near_valid_from_seed(seed, &config, Some(rule)) else { continue };
            total += 1;
            let options = ValidateOptions::for_case(nv.target_env, nv.profiles.as_deref());
            let expect = Expectation::Breaks { rule, mutator: Some(nv.mutator.to_string()) };
            for d in disagreements(sv, &nv.words, &options, &expect) {
                // The in-tree validator's exactness is near_valid.rs's subject.
                if d.oracles != [sv.name()] {
                    continue;
                }
                if let Some(doc) = &d.documented {
                    *known_hits.entry(doc.finding.clone()).or_default() += 1;
                    continue;
                }
                *undocumented.entry(format!("{} ({})", rule.name(), nv.mutator)).or_default() += 1;
                failures.push(format!("{} seed {seed} ({}: {}): {}", rule.name(), nv.mutator, nv.note, d.detail));
            }
        }
    }
    for k in sv.known_discrepancies() {
        eprintln!("known discrepancy {:?}/{:?}: {} ({})", k.rule, k.mutator, k.why, k.finding);
    }
    eprintln!("{total} near-valid modules; known discrepancies seen: {known_hits:?}");
    let shown: Vec<&String> = failures.iter().take(30).collect();
    assert!(
        failures.is_empty(),
        "{}: {} of {total} near-valid modules disagree; by rule (mutator): {undocumented:#?}\n{shown:#?}",
        sv.name(),
        failures.len()
    );
}

#[test]
fn every_known_discrepancy_still_reproduces() {
    let available = validators();
    for release in Release::ALL {
        let sv = available.iter().find(|(r, _)| *r == release).map(|(_, o)| o.as_ref());
        known_discrepancies_reproduce(release, sv);
    }
}

/// Each near-valid row of `release`'s table: its minimal module breaks its
/// rule alone (in-tree), and, when that build is here (`sv`), the build
/// still answers as documented and the judgement marks it so.
fn known_discrepancies_reproduce(release: Release, sv: Option<&dyn Oracle>) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for k in release.known_discrepancies() {
        // Valid modules 2025.5 rejects break no rule; ecosystem.rs checks those rows.
        if k.kind == "rejects-valid" {
            continue;
        }
        let name = format!("{}: {:?}/{:?}", release.label(), k.rule, k.mutator);
        let rule = k.rule.unwrap_or_else(|| panic!("{name}: a spirv-val discrepancy names its rule"));
        assert!(
            (release.rule_claim(rule) == RuleClaim::Rejects) == spirv_val_accepts(k),
            "{name}: a discrepancy is spirv-val accepting a rule it checks, or rejecting one it does not"
        );
        let bytes = std::fs::read(root.join(k.finding)).unwrap_or_else(|e| panic!("{name}: {}: {e}", k.finding));
        // Raw words: some findings (bad literal strings) do not decode.
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let ours = Validator::new(ValidateOptions::default()).check_words(&words);
        let rules: Vec<RuleId> = ours.errors().map(|f| f.rule).collect();
        // Rows may share a minimal module (the wrapped NonSemantic.Graph.DebugInfo
        // version stands for the Arm.ExperimentalMLOperations one, read by the
        // same code): it breaks the rule of one of them.
        let shared: Vec<RuleId> =
            release.known_discrepancies().iter().filter(|o| o.finding == k.finding).filter_map(|o| o.rule).collect();
        assert!(
            !rules.is_empty() && rules.iter().all(|r| *r == rule || shared.contains(r)),
            "{name}: in-tree reports {rules:?}"
        );
        if let Some(sv) = sv {
            let verdict = sv
                .validator()
                .and_then(|v| v.validate(&words, &ValidateOptions::default()))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
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

/// Which documented rows of the release's and main's tables the `sdk`
/// channel's library (SPIRV-Tools v2026.3 as tagged for the Vulkan SDK
/// 1.4.357.0) still shows, finding by finding: exactly those
/// [`known::sdk_still_shows`] names (the rows of its own table); the others
/// are fixed in it. docs/oracles.md's table quotes the answer.
#[test]
fn the_sdk_library_shows_exactly_the_rows_its_table_keeps() {
    let Some(sdk) = registry_oracle("spirv-val@sdk") else { return };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let rows = known::SPIRV_VAL_KNOWN.iter().chain(known::SPIRV_VAL_REJECTS_VALID).chain(known::SPIRV_VAL_MAIN_KNOWN);
    let mut wrong = Vec::new();
    for k in rows {
        let bytes = std::fs::read(root.join(k.finding)).unwrap_or_else(|e| panic!("{}: {e}", k.finding));
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let verdict = sdk
            .validator()
            .and_then(|v| v.validate(&words, &ValidateOptions::default()))
            .unwrap_or_else(|e| panic!("{}: {e}", k.finding));
        // A miss shows as acceptance, a false rejection as rejection.
        let shows = verdict.is_valid() == spirv_val_accepts(k);
        let line = format!("{} ({:?}): {}", k.finding, k.mutator, if shows { "still" } else { "fixed" });
        eprintln!("{line}");
        if shows != known::sdk_still_shows(k) {
            wrong.push(format!("{line}, the SDK table says otherwise"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

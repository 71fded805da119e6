//! `Validator::rule_words` (rules and offsets, no text) agrees with the full
//! report of `Validator::check_words` on every near-valid module of every
//! covered rule, on generated valid modules and on bytes that do not
//! decode: the same verdict, and the same (rule, word offset) pairs; the
//! report, whose messages `rule_words` never renders, has every message.

use spvgraph_generator::near_valid::{covered_rules, near_valid_from_seed};
use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::{Report, Ruling, Validator};
use std::collections::BTreeSet;

fn pairs_of_report(r: &Report) -> BTreeSet<(String, Option<usize>)> {
    r.findings.iter().map(|f| (f.rule.name().to_string(), f.word_offset)).collect()
}

fn pairs_of_ruling(r: &Ruling) -> BTreeSet<(String, Option<usize>)> {
    r.hits.iter().map(|h| (h.rule.name().to_string(), h.word_offset)).collect()
}

fn agree(v: &Validator, words: &[u32], what: &str) {
    let report = v.check_words(words);
    let ruling = v.rule_words(words);
    assert_eq!(ruling.is_valid(), report.is_valid(), "{what}");
    assert_eq!(pairs_of_ruling(&ruling), pairs_of_report(&report), "{what}");
    let errors: BTreeSet<_> = report.errors().map(|f| f.rule).collect();
    assert_eq!(ruling.error_rules().into_iter().collect::<BTreeSet<_>>(), errors, "{what}");
    for f in &report.findings {
        assert!(!f.message.is_empty(), "{what}: {} has no message", f.rule.name());
    }
}

#[test]
fn rulings_agree_with_reports_on_near_valid_modules() {
    let config = Config::default();
    let mut checked = 0;
    for rule in covered_rules() {
        for seed in 0..3 {
            let Ok(nv) = near_valid_from_seed(seed, &config, Some(rule)) else { continue };
            let options = ValidateOptions::for_case(nv.target_env, nv.profiles.as_deref());
            agree(&Validator::new(options), &nv.words, &format!("{} seed {seed}", rule.name()));
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} near-valid modules");
}

#[test]
fn rulings_agree_with_reports_on_valid_and_undecodable_input() {
    let v = Validator::new(ValidateOptions::default());
    for seed in 0..20 {
        let words = generate_from_seed(seed, &Config::default()).module.encode_words().expect("encodes");
        agree(&v, &words, &format!("generated seed {seed}"));
        assert!(v.rule_words(&words).hits.iter().all(|h| !h.severity.eq(&spvgraph_ir::rules::Severity::MustReject)));
    }
    agree(&v, &[0x0723_0203, 0x0001_0600, 0, 1, 0], "header only");
    agree(&v, &[0x0723_0203, 0x0001_0600], "truncated header");
    agree(&v, &[0x0723_0203, 0x0001_0600, 0, 9, 0, 0x0003_0011], "truncated instruction");
}

//! The near-valid regression corpus (`corpus/invalid/`): one module per
//! must-reject rule, each breaking exactly the rule its manifest names
//! (`expect`), under the target environment and profiles recorded in
//! `near_valid`. Other validators can run the same files.
//!
//! And the pipeline corpus (`corpus/pipeline/`): one valid module per
//! pipeline-creation rule, whose pipeline for the graph entry points its
//! manifest lists (`pipeline.entry_points`) breaks exactly that rule.

use serde_json::Value;
use spvgraph_ir::elem::Profile;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::rules::{RuleId, Severity};
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn corpus(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus").join(folder)
}

fn manifests() -> Vec<PathBuf> {
    manifests_in("invalid")
}

fn manifests_in(folder: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus(folder))
        .expect("corpus folder exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

fn options(manifest: &Value) -> ValidateOptions {
    let nv = &manifest["near_valid"];
    let profiles = match nv["profiles"].as_array() {
        Some(list) => list.iter().filter_map(|p| p.as_str().and_then(Profile::from_name)).collect(),
        None => Profile::ALL.to_vec(),
    };
    ValidateOptions {
        target_env: nv["target_env"].as_str().and_then(TargetEnv::parse).unwrap_or_default(),
        profiles,
        ..ValidateOptions::default()
    }
}

#[test]
fn every_case_breaks_exactly_its_rule() {
    let mut failures = Vec::new();
    for path in manifests() {
        let text = std::fs::read_to_string(&path).expect("read manifest");
        let manifest: Value = serde_json::from_str(&text).expect("manifest is JSON");
        let expect = manifest["expect"].as_str().expect("expect names a rule");
        let rule = RuleId::from_name(expect).unwrap_or_else(|| panic!("{}: unknown rule {expect}", path.display()));
        let spv = path.with_file_name(manifest["spv"].as_str().expect("spv file"));
        let bytes = std::fs::read(&spv).expect("read module");
        let report = Validator::new(options(&manifest)).check_bytes(&bytes);
        let rules: BTreeSet<RuleId> = report.errors().map(|f| f.rule).collect();
        if rules != BTreeSet::from([rule]) {
            failures.push(format!("{}: expected {expect}, got {:?}", spv.display(), rules));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_must_reject_rule_has_a_case() {
    let mut have = BTreeSet::new();
    for path in manifests() {
        let manifest: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
        if let Some(r) = manifest["expect"].as_str().and_then(RuleId::from_name) {
            have.insert(r);
        }
    }
    let missing: Vec<&str> = RuleId::ALL
        .iter()
        .filter(|r| r.severity() == Severity::MustReject && !have.contains(r))
        .map(|r| r.name())
        .collect();
    assert!(missing.is_empty(), "corpus/invalid has no case for {missing:?}");
}

#[test]
fn pipeline_cases_are_valid_and_break_exactly_their_pipeline_rule() {
    let mut failures = Vec::new();
    let mut have = BTreeSet::new();
    for path in manifests_in("pipeline") {
        let manifest: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
        assert_eq!(manifest["expect"], "valid", "{}", path.display());
        let name = manifest["pipeline"]["rule"].as_str().expect("pipeline.rule");
        let rule = RuleId::from_name(name).unwrap_or_else(|| panic!("{}: unknown rule {name}", path.display()));
        assert!(rule.is_pipeline(), "{}: {name} is not a pipeline rule", path.display());
        have.insert(rule);
        let broken: Vec<&str> =
            manifest["pipeline"]["entry_points"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        let spv = path.with_file_name(manifest["spv"].as_str().expect("spv file"));
        let module = spvgraph_ir::Module::decode_bytes(&std::fs::read(&spv).expect("read module")).expect("decodes");
        let validator = Validator::new(options(&manifest));
        let report = validator.check(&module);
        if !report.is_valid() {
            failures.push(format!("{}: the module is not valid: {:?}", spv.display(), report.rules()));
        }
        for (entry, findings) in validator.pipeline_rules_by_entry_point(&module) {
            let rules: BTreeSet<RuleId> = findings.iter().map(|f| f.rule).collect();
            let expected = if broken.contains(&entry.as_str()) { BTreeSet::from([rule]) } else { BTreeSet::new() };
            if rules != expected {
                failures.push(format!("{}: entry point {entry}: expected {expected:?}, got {rules:?}", spv.display()));
            }
        }
        if broken.is_empty() {
            failures.push(format!("{}: no entry point listed", spv.display()));
        }
    }
    let missing: Vec<&str> =
        RuleId::ALL.iter().filter(|r| r.is_pipeline() && !have.contains(r)).map(|r| r.name()).collect();
    assert!(missing.is_empty(), "corpus/pipeline has no case for {missing:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

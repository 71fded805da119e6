//! The regression corpus stays what its manifests say, and `spvgraph corpus
//! check` judges real implementations through both paths (registry names
//! and command templates):
//! - every catalogue operator × type row has its case, whose output comes
//!   from that operator, and whose recorded compliance mode is the one the
//!   compliance rules give today;
//! - the in-tree executor reproduces every expected output (registry path)
//!   and so does `spvgraph run` as an executor template;
//! - spirv-val accepts every valid case, and as a validator template it
//!   gives the verdicts the registry's in-process spirv-val gives;
//! - the JUnit file has one test case per corpus case.

use spvgraph::corpus::cases::{self, CorpusCase, Expect};
use spvgraph::corpus::check::{self, CheckOptions, Implementation, Role, Status};
use spvgraph_ir::elem::Profile;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::compliance::{output_contexts, Mode};
use spvgraph_oracle::registry::{self, OracleConfig};
use spvgraph_oracle::tools::Tool;
use std::path::PathBuf;
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

fn load(filter: Option<&str>) -> Vec<CorpusCase> {
    cases::load(&root(), filter).expect("the corpus loads")
}

fn options(role: Role, implementation: Implementation) -> CheckOptions {
    CheckOptions {
        role,
        implementation,
        profiles: Profile::ALL.to_vec(),
        limits: check::default_limits(Duration::from_secs(60)),
        jobs: 2,
    }
}

fn oracle(name: &str) -> Implementation {
    Implementation::Oracle(registry::build(name, &OracleConfig::default()).expect("a registry name"))
}

#[test]
fn every_type_row_has_a_case_whose_output_its_operator_computes() {
    let all = load(Some("valid/op-*"));
    for op in TosaOp::ALL {
        for row in 0..op.spec().type_rows.len() {
            let stem = spvgraph::corpus::build::row_stem(op, row);
            let case = all.iter().find(|c| c.stem == stem).unwrap_or_else(|| panic!("no case {stem}"));
            assert_eq!(case.manifest.ops, vec![op.name().to_string()], "{stem}");
            assert!(case.manifest.type_rows.iter().any(|r| r.row == row), "{stem}: not row {row}");
            assert!(
                case.manifest.expected.iter().any(|e| e.operator.as_deref() == Some(op.name())),
                "{stem}: no output comes from {op}"
            );
        }
    }
}

#[test]
fn recorded_compliance_modes_are_what_the_rules_give() {
    for case in load(Some("valid/*")).iter().filter(|c| !c.manifest.expected.is_empty()) {
        for (k, _) in case.manifest.entry_points.iter().enumerate() {
            let req = case.request(k).expect("the case's files load");
            let module = Module::decode_words(&req.module).expect("decodes");
            let contexts = output_contexts(&module, req.entry_point.as_deref(), &req.inputs, &req.graph_constants)
                .expect("contexts");
            for e in case.expected(k) {
                let ctx = contexts.get(e.output).expect("an output per record");
                let mode = match ctx {
                    Some(c) => c.mode().ok(),
                    None => Some(Mode::Exact),
                };
                let now = mode.map_or(serde_json::Value::Null, |m| serde_json::to_value(m).expect("serialises"));
                assert!(same(&e.compliance, &now), "{} ep{k} out{}: {} / {now}", case.name, e.output, e.compliance);
                if !e.compliance.is_null() {
                    serde_json::from_value::<Mode>(e.compliance.clone()).expect("a compliance mode");
                }
                assert!(case.dir.join(&e.file).is_file(), "{}: {} missing", case.name, e.file);
                assert!(e.confirmed_by.iter().any(|c| c == "in-tree"), "{}", case.name);
            }
        }
    }
}

#[test]
fn the_in_tree_executor_reproduces_every_expected_output() {
    let all: Vec<CorpusCase> = load(None).into_iter().filter(|c| !c.manifest.expected.is_empty()).collect();
    assert!(all.len() > 359, "only {} cases with expected outputs", all.len());
    let report = check::check(&all, &options(Role::Executor, oracle("in-tree"))).expect("runs");
    let bad: Vec<_> = report.cases.iter().filter(|r| matches!(r.status, Status::Fail | Status::Crash)).collect();
    assert!(bad.is_empty(), "{bad:#?}");
    let t = report.totals();
    assert_eq!(t.cases, all.len());
    // Nearly every case has an output the rules can judge without another run.
    assert!(t.pass * 10 >= t.cases * 9, "{t:?}");
}

#[test]
fn spvgraph_run_as_an_executor_template_passes_and_junit_lists_every_case() {
    let bin = env!("CARGO_BIN_EXE_spvgraph");
    let template = format!(
        "{bin} run {{spv}} --entry {{entry_point}} {{inputs:--input}} {{graph_constants:--graph-constant}} \
         --output-dir {{out_dir}}"
    );
    let cases: Vec<CorpusCase> =
        load(Some("valid/*-r0")).into_iter().filter(|c| !c.manifest.expected.is_empty()).collect();
    assert!(cases.len() >= 60, "{}", cases.len());
    let report = check::check(&cases, &options(Role::Executor, Implementation::Command(template))).expect("runs");
    let bad: Vec<_> = report.cases.iter().filter(|r| r.status != Status::Pass && r.status != Status::Skip).collect();
    assert!(bad.is_empty(), "{bad:#?}");
    let xml = report.junit();
    assert_eq!(xml.matches("<testcase ").count(), cases.len());
    assert!(xml.contains("failures=\"0\" errors=\"0\""), "{xml}");
}

#[test]
fn an_executor_template_that_writes_wrong_outputs_fails_and_one_that_crashes_is_a_crash() {
    let cases = load(Some("valid/op-add-r0"));
    assert_eq!(cases.len(), 1);
    // Copies the first input as the output: the wrong answer for ADD.
    let wrong = Implementation::Command("for f in {inputs}; do cp \"$f\" {out_dir}/out0.npy; done".into());
    let report = check::check(&cases, &options(Role::Executor, wrong)).expect("runs");
    assert_eq!(report.cases[0].status, Status::Fail, "{:?}", report.cases[0]);
    let crash = Implementation::Command("kill -SEGV $$".into());
    let report = check::check(&cases, &options(Role::Executor, crash)).expect("runs");
    assert_eq!(report.cases[0].status, Status::Crash, "{:?}", report.cases[0]);
}

#[test]
fn spirv_val_accepts_every_valid_case_and_its_template_agrees_with_the_registry() {
    let Some(val) = spvgraph_testkit::tool(Tool::SpirvVal) else { return };
    let valid = load(Some("valid/*"));
    let report = check::check(&valid, &options(Role::Validator, oracle("spirv-val"))).expect("runs");
    let rejected: Vec<_> = report.cases.iter().filter(|r| r.status != Status::Pass).collect();
    assert!(rejected.is_empty(), "{rejected:#?}");
    // A sample of every folder through the command path: same verdicts.
    let sample: Vec<CorpusCase> = load(None).into_iter().step_by(7).collect();
    assert!(sample.iter().any(|c| matches!(c.expect, Expect::Reject(_))));
    let template = format!("{} --target-env {{target_env}} {{spv}}", val.display());
    let by_command = check::check(&sample, &options(Role::Validator, Implementation::Command(template))).expect("runs");
    let by_registry = check::check(&sample, &options(Role::Validator, oracle("spirv-val"))).expect("runs");
    for (a, b) in by_command.cases.iter().zip(&by_registry.cases) {
        assert_eq!((&a.name, a.status), (&b.name, b.status), "{} / {}", a.detail, b.detail);
    }
}

/// JSON values equal up to the last bit of a float (serde_json's parser may
/// read the shortest representation one ulp off).
fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => x == y || (x - y).abs() <= 4.0 * f64::EPSILON * x.abs().max(y.abs()),
            _ => x == y,
        },
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w)),
        _ => a == b,
    }
}

/// `corpus check` and `spvgraph diff` (the hunt's judgement of one module)
/// give one case the same verdict: the oracle agrees in both, or it
/// disagrees in both and the same documented finding explains it.
fn same_verdict_in_corpus_check_and_diff(name: &str, role: Role, oracle_name: &str) -> Option<String> {
    let cases = load(Some(name));
    assert_eq!(cases.len(), 1, "{name}");
    let config = OracleConfig::default();
    let built = registry::build(oracle_name, &config).expect("a registry name");
    if let Err(e) = built.available() {
        assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true has {oracle_name}: {e}");
        return None;
    }
    let report = check::check(&cases, &options(role, oracle(oracle_name))).expect("runs");
    let by_check = &report.cases[0];
    let mut oracles: Vec<std::sync::Arc<dyn spvgraph_oracle::oracle::Oracle>> = vec![built.into()];
    if role == Role::Executor {
        oracles.push(registry::build(registry::IN_TREE, &config).expect("in-tree").into());
    }
    let spv = cases[0].spv();
    let by_diff = spvgraph::diff::diff_module(&spv, &oracles, &Default::default()).expect("diff runs");
    let about: Vec<_> = by_diff.disagreements.iter().filter(|d| d.oracles.iter().any(|o| o == oracle_name)).collect();
    match by_check.status {
        Status::Pass => assert!(about.is_empty(), "{name}: corpus check passes, diff says {about:#?}"),
        Status::Fail | Status::Crash => {
            let [d] = about.as_slice() else { panic!("{name}: corpus check says {by_check:?}, diff {about:#?}") };
            let finding = d.documented.as_ref().map(|x| x.finding.clone());
            assert_eq!(by_check.documented, finding, "{name}: {by_check:?} / {d:?}");
        }
        Status::Skip => panic!("{name}: skipped: {}", by_check.detail),
    }
    by_check.documented.clone()
}

#[test]
fn a_valid_an_invalid_and_a_documented_backend_failure_get_one_verdict_from_corpus_check_and_diff() {
    assert_eq!(same_verdict_in_corpus_check_and_diff("valid/op-add-r0", Role::Validator, "spirv-val"), None);
    let invalid = "invalid/tensor.operands.out-of-bounds-type.1";
    if let Some(finding) = same_verdict_in_corpus_check_and_diff(invalid, Role::Validator, "spirv-val") {
        assert_eq!(finding, "corpus/findings/spirv-val-out-of-bounds-array.spv");
    }
    let refused = same_verdict_in_corpus_check_and_diff("valid/op-negate-r5", Role::Executor, "emulation-layer");
    if let Some(finding) = refused {
        assert_eq!(finding, "corpus/findings/emulation-layer-graph-constant-ctc-rejected.spv");
    }
}

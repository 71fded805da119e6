//! `compliance::compare_run` on every combination of outcomes, and the sweep tally,
//! with a hand-built ABS graph and hand-made reference runs (no tools needed).

use ndarray::{ArrayD, IxDyn};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::compliance::{compare_run, Agreement, PreciseOutcome, PreciseOutput, ReferenceTensor, SweepTally};
use spvgraph_oracle::oracle::{ExecOutcome, ExecRequest, OracleError, Refusal};
use std::collections::BTreeMap;

/// `out0 = ABS(in0)`, `out1 = in0` (a pass-through), fp32 [4].
fn module() -> Vec<u32> {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[4]));
    let gty = b.type_graph(&[t], &[t, t]);
    let vars = (0..3).map(|i| b.interface_variable(t, 0, i)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.tosa(TosaOp::Abs, t, vec![x]);
    b.graph_output(y, 0, None);
    b.graph_output(x, 1, None);
    b.end_graph();
    b.finish().encode_words().expect("encodes")
}

fn fp32(values: &[f32]) -> TensorData {
    TensorData::Fp32(ArrayD::from_shape_vec(IxDyn(&[values.len()]), values.to_vec()).expect("shape"))
}

fn precise(values: &[f64]) -> PreciseOutput {
    PreciseOutput {
        reference: ReferenceTensor::Precise { shape: vec![values.len()], values: values.to_vec() },
        bounds: None,
    }
}

fn run(reference: PreciseOutcome, candidate: Result<ExecOutcome, OracleError>) -> Agreement {
    let words = module();
    let inputs = [fp32(&[-1.0, 2.0, -3.5, 0.0])];
    let constants = BTreeMap::new();
    let req = ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &constants };
    compare_run(&req, &reference, "candidate", candidate).expect("judged")
}

fn refused(kind: Refusal) -> PreciseOutcome {
    PreciseOutcome::Refused { kind, reason: "because".into() }
}

fn good_reference() -> PreciseOutcome {
    PreciseOutcome::Outputs(vec![precise(&[1.0, 2.0, 3.5, 0.0]), precise(&[-1.0, 2.0, -3.5, 0.0])])
}

#[test]
fn compliant_outputs_agree() {
    let ours = Ok(ExecOutcome::Outputs(vec![fp32(&[1.0, 2.0, 3.5, 0.0]), fp32(&[-1.0, 2.0, -3.5, 0.0])]));
    match run(good_reference(), ours) {
        Agreement::Compliant(r) => assert_eq!(r.len(), 2),
        other => panic!("expected agreement, got {other:?}"),
    }
}

#[test]
fn a_changed_pass_through_output_is_a_mismatch_on_that_output() {
    let ours = Ok(ExecOutcome::Outputs(vec![fp32(&[1.0, 2.0, 3.5, 0.0]), fp32(&[-1.0, 2.0, -3.5, 1e-3])]));
    match run(good_reference(), ours) {
        Agreement::Mismatch { output: Some(1), detail } => assert!(detail.contains("pass-through"), "{detail}"),
        other => panic!("expected a mismatch on output 1, got {other:?}"),
    }
}

#[test]
fn abs_is_exact() {
    let ours = Ok(ExecOutcome::Outputs(vec![fp32(&[1.0, 2.0, 3.5000002, 0.0]), fp32(&[-1.0, 2.0, -3.5, 0.0])]));
    match run(good_reference(), ours) {
        Agreement::Mismatch { output: Some(0), detail } => assert!(detail.contains("ABS") && detail.contains("EXACT")),
        other => panic!("expected a mismatch on output 0, got {other:?}"),
    }
}

#[test]
fn refusals() {
    let outputs = || Ok(ExecOutcome::Outputs(vec![fp32(&[0.0; 4]), fp32(&[0.0; 4])]));
    let candidate_refuses = |kind| Ok(ExecOutcome::Refused { kind, reason: "no".into() });
    assert!(matches!(run(refused(Refusal::Unpredictable), outputs()), Agreement::Unconstrained(_)));
    assert!(matches!(
        run(refused(Refusal::Invalid), candidate_refuses(Refusal::Invalid)),
        Agreement::BothRefused { candidate: Refusal::Invalid, reference: Refusal::Invalid }
    ));
    assert!(matches!(run(refused(Refusal::Invalid), outputs()), Agreement::Mismatch { output: None, .. }));
    assert!(matches!(run(good_reference(), candidate_refuses(Refusal::Unpredictable)), Agreement::Mismatch { .. }));
    assert!(matches!(run(good_reference(), candidate_refuses(Refusal::OverBudget)), Agreement::Skipped(_)));
    let crashed = Err(OracleError::Failed { oracle: "candidate".into(), reason: "boom".into() });
    assert!(matches!(run(good_reference(), crashed), Agreement::Mismatch { .. }));
    let one_output = Ok(ExecOutcome::Outputs(vec![fp32(&[1.0, 2.0, 3.5, 0.0])]));
    assert!(matches!(run(good_reference(), one_output), Agreement::Mismatch { output: None, .. }));
}

#[test]
fn an_unavailable_candidate_is_an_error_not_a_verdict() {
    let words = module();
    let constants = BTreeMap::new();
    let req = ExecRequest { module: &words, entry_point: None, inputs: &[], graph_constants: &constants };
    let missing = Err(OracleError::Unavailable { oracle: "x".into(), reason: "not installed".into() });
    assert!(compare_run(&req, &good_reference(), "x", missing).is_err());
}

#[test]
fn the_tally_counts_and_reports_the_first_problem() {
    let mut t = SweepTally::new();
    let ok = Ok(Agreement::BothRefused { candidate: Refusal::Invalid, reference: Refusal::Invalid });
    let bad = Ok(Agreement::Mismatch { output: Some(0), detail: "off by one".into() });
    let err = Err(OracleError::Failed { oracle: "m".into(), reason: "crashed".into() });
    t.record(TosaOp::Abs, 1, "seed 1", &ok);
    t.record(TosaOp::Abs, 1, "seed 2", &bad);
    t.record(TosaOp::Abs, 1, "seed 3", &err);
    t.record(TosaOp::Add, 0, "seed 4", &Ok(Agreement::Unconstrained("REQUIRE".into())));
    let abs = t.row(TosaOp::Abs, 1).expect("row");
    assert_eq!((abs.cases, abs.pass, abs.fail, abs.errors), (3, 1, 1, 1));
    assert_eq!(abs.first_problem, Some(("seed 2".to_string(), "off by one".to_string())));
    let total = t.total();
    assert_eq!((total.cases, total.unchecked), (4, 1));
    let table = t.table();
    assert!(table.contains("ABS") && table.contains("seed 2: off by one"), "{table}");
    let mut merged = SweepTally::new();
    merged.merge(&t);
    merged.merge(&t);
    assert_eq!(merged.total().cases, 8);
}

//! Root-cause identity: a documented discrepancy is recognised by the module
//! features that trigger it, whatever operator the wrong answer came
//! through. The emulation layer's null-row bug (documented with CAST and
//! LOGICAL_NOT modules) shown through LOGICAL_LEFT_SHIFT, run on the real
//! layer, is documented; the same wrong answer on a module without a null
//! row is not.

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::attribution::Owner;
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::emulation_layer::EmulationLayer;
use spvgraph_oracle::external::tosa_reference::TosaReferenceModel;
use spvgraph_oracle::features::{self, Feature};
use spvgraph_oracle::judge::{judge, Disagreement, ExecAnswer, Expectation, Kind, Observations};
use spvgraph_oracle::oracle::Executor as _;
use spvgraph_oracle::oracle::{ExecOutcome, ExecRequest, Oracle};
use std::collections::BTreeMap;

/// `LOGICAL_LEFT_SHIFT(x, s)` of an i32 `[2, 4]` input by the constant
/// `s = [[0, 0, 0, 0], [1, 2, 3, 4]]`, whose first row is an
/// `OpConstantNull` row when `null_row`, else written out as zeros.
fn shift_module(null_row: bool) -> Vec<u32> {
    let mut b = ModuleBuilder::new();
    let row_ty = b.type_tensor(ElemType::I32, Some(&[4]));
    let ty = b.type_tensor(ElemType::I32, Some(&[2, 4]));
    let gty = b.type_graph(&[ty], &[ty]);
    let vin = b.interface_variable(ty, 0, 0);
    let vout = b.interface_variable(ty, 0, 1);
    let first = if null_row {
        b.const_null(row_ty)
    } else {
        b.const_tensor(ElemType::I32, &[4], &[0, 0, 0, 0]).expect("a row")
    };
    let second = b.const_tensor(ElemType::I32, &[4], &[1, 2, 3, 4]).expect("a row");
    let shifts = b.const_composite(ty, vec![first, second]);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vec![vin, vout]);
    let x = b.graph_input(ty, 0, None);
    let r = b.tosa(TosaOp::LogicalLeftShift, ty, vec![x, shifts]);
    b.graph_output(r, 0, None);
    b.end_graph();
    b.finish().encode_words().expect("encodes")
}

fn ones() -> Vec<TensorData> {
    vec![TensorData::from_bits(ElemType::I32, &[2, 4], &[1; 8]).expect("shape")]
}

/// The disagreements of `outcome` as the layer's answer on `words`.
fn judged(layer: &EmulationLayer, words: &[u32], inputs: &[TensorData], outcome: ExecOutcome) -> Vec<Disagreement> {
    let gc = BTreeMap::new();
    let request = ExecRequest { module: words, entry_point: Some("main"), inputs, graph_constants: &gc };
    let reference = Executor::default().execute(&request).expect("the in-tree executor runs it");
    let referee = TosaReferenceModel::discover();
    let observations = Observations {
        request: Some(request),
        reference: Some(reference),
        executions: vec![ExecAnswer::plain(layer, Ok(outcome))],
        referee: referee.available().is_ok().then_some(&referee as &dyn Oracle),
        operators: vec![TosaOp::LogicalLeftShift],
        ..Observations::default()
    };
    judge(&Expectation::Valid, &observations)
}

#[test]
fn the_null_row_bug_through_logical_left_shift_is_documented_on_the_real_layer() {
    let Some(layer) = spvgraph_testkit::oracle(EmulationLayer::discover()) else {
        return;
    };
    let words = shift_module(true);
    assert!(features::detect_words(&words, None).contains(&Feature::NullRow));
    let inputs = ones();
    let gc = BTreeMap::new();
    let request = ExecRequest { module: &words, entry_point: Some("main"), inputs: &inputs, graph_constants: &gc };
    let outcome = layer.execute(&request).expect("the layer answers");
    let wrong: Vec<Disagreement> = judged(&layer, &words, &inputs, outcome.clone())
        .into_iter()
        .filter(|d| d.kind == Kind::WrongOutput && d.oracles.first().map(String::as_str) == Some("emulation-layer"))
        .collect();
    assert!(!wrong.is_empty(), "the layer no longer misreads the null row: {outcome:?}");
    for d in &wrong {
        assert_eq!(d.signature_operator(), Some(TosaOp::LogicalLeftShift), "{d:?}");
        let doc = d.documented.as_ref().unwrap_or_else(|| panic!("not documented: {}", d.detail));
        assert!(doc.finding.contains("null-row"), "{doc:?}");
        assert_eq!(doc.owner, Owner::EmulationLayer);
        assert_eq!(doc.features, vec![Feature::NullRow]);
    }

    // The same wrong answer on a module without a null row is a new finding.
    let plain = shift_module(false);
    assert!(!features::detect_words(&plain, None).contains(&Feature::NullRow));
    let right = layer
        .execute(&ExecRequest { module: &plain, entry_point: Some("main"), inputs: &inputs, graph_constants: &gc })
        .expect("the layer answers");
    assert!(
        judged(&layer, &plain, &inputs, right).iter().all(|d| d.kind != Kind::WrongOutput),
        "without the null row the layer is right"
    );
    let undocumented = judged(&layer, &plain, &inputs, outcome);
    let d = undocumented.iter().find(|d| d.kind == Kind::WrongOutput).expect("the wrong answer is a disagreement");
    assert!(d.documented.is_none(), "documented without the feature: {:?}", d.documented);
}

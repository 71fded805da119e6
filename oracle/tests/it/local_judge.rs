//! Each operator judged on its own (`spvgraph_oracle::judge`, with a
//! backend's run of the observed form): a wrong intermediate value that a
//! later operator hides is found and named by its operator; a plain form
//! that disagrees with the observed form is `observed-form-differs`; what
//! was judged is counted; and, on the real emulation layer, wrong values
//! judged operator by operator are still found documented where a row of
//! its table explains them (REDUCE_MAX of -inf, the null-row bug).
//! Stand-in backends answer with the in-tree executor's outputs, changed
//! where the test says; the in-tree executor, and the TOSA reference model
//! as the referee where it is installed, are real.

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::Id;
use spvgraph_ir::observe::{observed_form, ObservedForm};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::attribution::Owner;
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::emulation_layer::EmulationLayer;
use spvgraph_oracle::external::tosa_reference::TosaReferenceModel;
use spvgraph_oracle::features::Feature;
use spvgraph_oracle::judge::{
    judge_counted, judge_operators, Disagreement, ExecAnswer, Expectation, Judgement, Kind, Observations,
    ObservedAnswer, OperatorOutcome, UnjudgedReason,
};
use spvgraph_oracle::oracle::Executor as _;
use spvgraph_oracle::oracle::{self, ExecOutcome, ExecRequest, Instance, Oracle, OracleError};
use std::collections::BTreeMap;

/// A backend known by name only: its answers are given to the judgement.
struct Named(Instance);

impl Named {
    fn new(name: &'static str) -> Named {
        Named(Instance::release(name))
    }
}

impl Oracle for Named {
    fn instance(&self) -> &Instance {
        &self.0
    }
    fn available(&self) -> Result<(), OracleError> {
        Ok(())
    }
    fn version(&self) -> Option<String> {
        None
    }
    fn components(&self) -> &'static [Owner] {
        &[]
    }
    spvgraph_oracle::capabilities! { validator: no, executor: yes, producer: no, reader: no, referee: no }
}

impl oracle::Executor for Named {
    fn execute(&self, _: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        Err(OracleError::Unsupported { oracle: self.0.name().into(), what: "execution" })
    }
}

fn referee() -> Option<TosaReferenceModel> {
    spvgraph_testkit::oracle(TosaReferenceModel::discover())
}

/// `x -> ADD(x, 1) -> MAXIMUM(., 100)`: the MAXIMUM hides whatever the ADD
/// gives below 100 (i32 `[2, 4]`, inputs small).
fn masked_module() -> (Module, Id) {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I32, Some(&[2, 4]));
    let gty = b.type_graph(&[t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let c1 = b.const_tensor(ElemType::I32, &[1, 1], &[1]).expect("1");
    let c100 = b.const_tensor(ElemType::I32, &[1, 1], &[100]).expect("100");
    let propagate = b.const_u32(1);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let a = b.tosa(TosaOp::Add, t, vec![x, c1]);
    let m = b.tosa(TosaOp::Maximum, t, vec![propagate, a, c100]);
    b.graph_output(m, 0, None);
    b.end_graph();
    (b.finish(), a)
}

fn small_inputs() -> Vec<TensorData> {
    vec![TensorData::from_bits(ElemType::I32, &[2, 4], &[1, 2, 3, 4, 5, 6, 7, 8]).expect("shape")]
}

/// The in-tree executor's outputs of `module` (words) on `inputs`.
fn run(words: &[u32], inputs: &[TensorData]) -> Vec<TensorData> {
    let gc = BTreeMap::new();
    let request = ExecRequest { module: words, entry_point: Some("main"), inputs, graph_constants: &gc };
    match Executor::default().execute(&request) {
        Ok(ExecOutcome::Outputs(o)) => o,
        other => panic!("the in-tree executor does not run it: {other:?}"),
    }
}

/// `t` with `delta` added to its first element (integers).
fn bumped(t: &TensorData, delta: u64) -> TensorData {
    let mut bits = t.to_bits();
    bits[0] = bits[0].wrapping_add(delta) & 0xffff_ffff;
    TensorData::from_bits(t.elem(), t.shape(), &bits).expect("same shape")
}

/// Judges `plain` and `observed` as `backend`'s outputs of `module`.
fn judge_answers(
    backend: &dyn Oracle,
    words: &[u32],
    form: &ObservedForm,
    inputs: &[TensorData],
    plain: ExecOutcome,
    observed: Option<ExecOutcome>,
    referee: Option<&dyn Oracle>,
) -> Judgement {
    let gc = BTreeMap::new();
    let request = ExecRequest { module: words, entry_point: Some("main"), inputs, graph_constants: &gc };
    let reference = Executor::default().execute(&request).expect("in-tree");
    let observations = Observations {
        request: Some(request),
        reference: Some(reference),
        executions: vec![ExecAnswer {
            oracle: backend,
            outcome: Ok(plain),
            observed: observed.map(|o| ObservedAnswer { form, outcome: Ok(o), rescue: None }),
        }],
        referee,
        ..Observations::default()
    };
    judge_counted(&Expectation::Valid, &observations)
}

fn wrong(ds: &[Disagreement]) -> Vec<&Disagreement> {
    ds.iter().filter(|d| matches!(d.kind, Kind::WrongOutput | Kind::ObservedFormDiffers)).collect()
}

#[test]
fn a_wrong_intermediate_a_later_operator_hides_is_named_by_its_operator() {
    let referee = referee();
    let referee = referee.as_ref().map(|r| r as &dyn Oracle);
    let (m, add) = masked_module();
    let words = m.encode_words().expect("encodes");
    let form = observed_form(&m, Some("main")).expect("observed form");
    let observed_words = form.module.encode_words().expect("encodes");
    let inputs = small_inputs();
    let plain = run(&words, &inputs);
    let mut observed = run(&observed_words, &inputs);
    let at = form.outputs.iter().position(|o| o.value == add).expect("the ADD is observed");
    observed[at] = bumped(&observed[at], 1);
    let backend = Named::new("backend");
    let j = judge_answers(
        &backend,
        &words,
        &form,
        &inputs,
        ExecOutcome::Outputs(plain.clone()),
        Some(ExecOutcome::Outputs(observed.clone())),
        referee,
    );
    let w = wrong(&j.disagreements);
    assert_eq!(w.len(), 1, "{:#?}", j.disagreements);
    assert_eq!(w[0].kind, Kind::WrongOutput);
    assert_eq!(w[0].operators, [TosaOp::Add]);
    assert_eq!(w[0].oracles[0], "backend");
    if referee.is_some() {
        assert_eq!(w[0].oracles, ["backend"], "the referee names the backend alone");
    }
    let c = &j.coverage[0];
    assert_eq!((c.operators, c.judged), (2, 2), "{c}");
    assert!(c.complete() && c.fallback.is_none(), "{c}");

    // The graph's outputs alone (the fallback) show nothing: MAXIMUM hides it.
    let blind = judge_answers(&backend, &words, &form, &inputs, ExecOutcome::Outputs(plain.clone()), None, referee);
    assert!(wrong(&blind.disagreements).is_empty(), "{:#?}", blind.disagreements);
    let c = &blind.coverage[0];
    assert_eq!(c.fallback, Some(UnjudgedReason::ObservedFormUnavailable));
    assert_eq!((c.judged, c.unjudged.get(&UnjudgedReason::ObservedFormUnavailable)), (1, Some(&1)), "{c}");
    assert!(!c.complete());

    // The library function on the observed values gives the same verdicts.
    let gc = BTreeMap::new();
    let request = ExecRequest { module: &words, entry_point: Some("main"), inputs: &inputs, graph_constants: &gc };
    let values = form.values(&observed).expect("values");
    let verdicts = judge_operators(&request, &values, "backend", referee).verdicts;
    assert_eq!(verdicts.len(), 2);
    assert!(matches!(verdicts[0].outcome, OperatorOutcome::Wrong { .. }), "{verdicts:?}");
    assert_eq!(verdicts[1].outcome, OperatorOutcome::Compliant, "MAXIMUM is right on the values it was given");
}

#[test]
fn a_plain_form_that_the_observed_form_contradicts_is_its_own_finding() {
    let referee = referee();
    let referee = referee.as_ref().map(|r| r as &dyn Oracle);
    let (m, _) = masked_module();
    let words = m.encode_words().expect("encodes");
    let form = observed_form(&m, Some("main")).expect("observed form");
    let inputs = small_inputs();
    let mut plain = run(&words, &inputs);
    let observed = run(&form.module.encode_words().expect("encodes"), &inputs);
    plain[0] = bumped(&plain[0], 3);
    let backend = Named::new("backend");
    let j = judge_answers(
        &backend,
        &words,
        &form,
        &inputs,
        ExecOutcome::Outputs(plain),
        Some(ExecOutcome::Outputs(observed.clone())),
        referee,
    );
    let w = wrong(&j.disagreements);
    assert_eq!(w.len(), 1, "{:#?}", j.disagreements);
    assert_eq!(w[0].kind, Kind::ObservedFormDiffers);
    assert_eq!(w[0].operators, [TosaOp::Maximum]);
    assert_eq!(w[0].oracles, ["backend"]);
    // Both forms right: nothing.
    let right = run(&words, &inputs);
    let j = judge_answers(
        &backend,
        &words,
        &form,
        &inputs,
        ExecOutcome::Outputs(right),
        Some(ExecOutcome::Outputs(observed)),
        referee,
    );
    assert!(j.disagreements.is_empty(), "{:#?}", j.disagreements);
    assert!(j.coverage[0].complete());
}

/// `x -> REDUCE_MAX(axis 1) -> ADD(., x)` of an fp32 `[2, 4]` input whose
/// second row is all -inf: the REDUCE_MAX result is -inf there.
fn reduce_max_module() -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[2, 4]));
    let r = b.type_tensor(ElemType::Fp32, Some(&[2, 1]));
    let gty = b.type_graph(&[t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let axis = b.const_u32(1);
    let propagate = b.const_u32(1);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let m = b.tosa(TosaOp::ReduceMax, r, vec![axis, propagate, x]);
    let s = b.tosa(TosaOp::Add, t, vec![m, x]);
    b.graph_output(s, 0, None);
    b.end_graph();
    b.finish()
}

/// `LOGICAL_LEFT_SHIFT(x, s)` by a constant with an `OpConstantNull` first
/// row, then `ADD(., x)` (i32 `[2, 4]`).
fn null_row_module() -> Module {
    let mut b = ModuleBuilder::new();
    let row_ty = b.type_tensor(ElemType::I32, Some(&[4]));
    let ty = b.type_tensor(ElemType::I32, Some(&[2, 4]));
    let gty = b.type_graph(&[ty], &[ty]);
    let vars = vec![b.interface_variable(ty, 0, 0), b.interface_variable(ty, 0, 1)];
    let first = b.const_null(row_ty);
    let second = b.const_tensor(ElemType::I32, &[4], &[1, 2, 3, 4]).expect("a row");
    let shifts = b.const_composite(ty, vec![first, second]);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(ty, 0, None);
    let r = b.tosa(TosaOp::LogicalLeftShift, ty, vec![x, shifts]);
    let s = b.tosa(TosaOp::Add, ty, vec![r, x]);
    b.graph_output(s, 0, None);
    b.end_graph();
    b.finish()
}

/// The layer's run of `m` and of its observed form, judged.
fn on_the_layer(layer: &EmulationLayer, m: &Module, inputs: &[TensorData]) -> Judgement {
    let referee = referee();
    let words = m.encode_words().expect("encodes");
    let form = observed_form(m, Some("main")).expect("observed form");
    let observed_words = form.module.encode_words().expect("encodes");
    let gc = BTreeMap::new();
    let plain = ExecRequest { module: &words, entry_point: Some("main"), inputs, graph_constants: &gc };
    let observed = ExecRequest { module: &observed_words, ..plain };
    let mut outcomes = layer.execute_batch(&[plain, observed]).into_iter();
    let (Some(Ok(p)), Some(Ok(o))) = (outcomes.next(), outcomes.next()) else { panic!("the layer does not answer") };
    judge_answers(layer, &words, &form, inputs, p, Some(o), referee.as_ref().map(|r| r as &dyn Oracle))
}

#[test]
fn documented_wrong_values_of_the_real_layer_stay_documented_when_judged_operator_by_operator() {
    let Some(layer) = spvgraph_testkit::oracle(EmulationLayer::discover()) else {
        return;
    };
    // REDUCE_MAX of -inf values in the middle of the graph.
    let inf = f32::NEG_INFINITY.to_bits();
    let bits: Vec<u64> = [1.0f32.to_bits(), 2.0f32.to_bits(), 3.0f32.to_bits(), 4.0f32.to_bits(), inf, inf, inf, inf]
        .into_iter()
        .map(u64::from)
        .collect();
    let inputs = vec![TensorData::from_bits(ElemType::Fp32, &[2, 4], &bits).expect("shape")];
    let j = on_the_layer(&layer, &reduce_max_module(), &inputs);
    let w = wrong(&j.disagreements);
    assert!(!w.is_empty(), "the layer no longer gives -FLT_MAX for REDUCE_MAX of -inf: {:#?}", j.disagreements);
    assert_eq!(w[0].operators, [TosaOp::ReduceMax], "{}", w[0].detail);
    let doc = w[0].documented.as_ref().unwrap_or_else(|| panic!("not documented: {}", w[0].detail));
    assert!(doc.finding.contains("reduce-max"), "{doc:?}");

    // The null-row bug through LOGICAL_LEFT_SHIFT, in the middle of the graph.
    let inputs = vec![TensorData::from_bits(ElemType::I32, &[2, 4], &[1; 8]).expect("shape")];
    let j = on_the_layer(&layer, &null_row_module(), &inputs);
    let w = wrong(&j.disagreements);
    assert!(!w.is_empty(), "the layer no longer misreads the null row: {:#?}", j.disagreements);
    assert_eq!(w[0].operators, [TosaOp::LogicalLeftShift], "{}", w[0].detail);
    let doc = w[0].documented.as_ref().unwrap_or_else(|| panic!("not documented: {}", w[0].detail));
    assert_eq!(doc.owner, Owner::EmulationLayer);
    assert_eq!(doc.features, vec![Feature::NullRow]);
}

/// `x -> TANH -> CEIL` in bf16: `tanh(-4) = -0.99933` rounds to `-1.0`.
fn tanh_ceil_module() -> (Module, Id, Id) {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Bf16, Some(&[4]));
    let gty = b.type_graph(&[t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let tanh = b.tosa(TosaOp::Tanh, t, vec![x]);
    let ceil = b.tosa(TosaOp::Ceil, t, vec![tanh]);
    b.graph_output(ceil, 0, None);
    b.end_graph();
    (b.finish(), tanh, ceil)
}

fn bf16s(values: &[f32]) -> TensorData {
    let bits: Vec<u64> = values.iter().map(|v| u64::from(v.to_bits() >> 16)).collect();
    TensorData::from_bits(ElemType::Bf16, &[values.len()], &bits).expect("shape")
}

/// TOSA lets an operator be computed in higher precision than its types
/// (the operator sequence precision requirement): a backend that fuses TANH
/// and CEIL in f32 gives `ceil(-0.99933) = -0` where CEIL of the rounded
/// `-1.0` its observed form shows is `-1`. That is compliant; a CEIL result
/// no neighbouring operand value explains is still wrong.
#[test]
fn a_computed_operand_used_unrounded_is_not_a_wrong_output() {
    let referee = referee();
    let referee = referee.as_ref().map(|r| r as &dyn Oracle);
    let (m, _, ceil) = tanh_ceil_module();
    let words = m.encode_words().expect("encodes");
    let form = observed_form(&m, Some("main")).expect("observed form");
    let inputs = vec![bf16s(&[-4.0, -5.0, -6.0, 0.5])];
    let observed = run(&form.module.encode_words().expect("encodes"), &inputs);
    let at = form.outputs.iter().position(|o| o.value == ceil).expect("the CEIL is observed");
    let fused: Vec<f32> = [-4.0f32, -5.0, -6.0, 0.5].iter().map(|x| x.tanh().ceil()).collect();
    assert_eq!(run(&words, &inputs)[0].to_f64()[0], -1.0, "CEIL of the rounded TANH");
    assert!(fused[0] == 0.0 && fused[0].is_sign_negative(), "the fused chain gives -0");
    let backend = Named::new("backend");
    let judged = |ceil_values: &[f32]| {
        let mut observed = observed.clone();
        observed[at] = bf16s(ceil_values);
        let plain = vec![observed[at].clone()];
        judge_answers(
            &backend,
            &words,
            &form,
            &inputs,
            ExecOutcome::Outputs(plain),
            Some(ExecOutcome::Outputs(observed)),
            referee,
        )
    };
    let j = judged(&fused);
    assert!(wrong(&j.disagreements).is_empty(), "{:#?}", j.disagreements);
    assert!(j.coverage[0].complete(), "{}", j.coverage[0]);
    let j = judged(&[3.0, -0.0, -0.0, 1.0]);
    let w = wrong(&j.disagreements);
    assert_eq!(w.len(), 1, "{:#?}", j.disagreements);
    assert_eq!(w[0].operators, [TosaOp::Ceil]);
}

fn f32s(shape: &[usize], values: &[f32]) -> TensorData {
    let bits: Vec<u64> = values.iter().map(|v| u64::from(v.to_bits())).collect();
    TensorData::from_bits(ElemType::Fp32, shape, &bits).expect("shape")
}

/// TRANSPOSE_CONV2D fp32 of a `[1,1,IW,1]` input with a `[1,1,KW,1]`
/// weight, both graph inputs (so the judgement knows the weights), bias 0
/// and stride `[1, STRIDE]`, into `[1,1,OW,1]`.
fn transpose_conv_module(iw: u32, kw: u32, ow: u32, stride: i32) -> Module {
    let mut b = ModuleBuilder::new();
    let x = b.type_tensor(ElemType::Fp32, Some(&[1, 1, iw, 1]));
    let w = b.type_tensor(ElemType::Fp32, Some(&[1, 1, kw, 1]));
    let out = b.type_tensor(ElemType::Fp32, Some(&[1, 1, ow, 1]));
    let gty = b.type_graph(&[x, w], &[out]);
    let vars = vec![b.interface_variable(x, 0, 0), b.interface_variable(w, 0, 1), b.interface_variable(out, 0, 2)];
    let out_pad = b.const_i32_vector(&[0, 0, 0, 0]);
    let strides = b.const_i32_vector(&[1, stride]);
    let fp32 = b.const_u32(3);
    let no = b.const_bool(false);
    let zero = b.const_tensor(ElemType::Fp32, &[1], &[0]).expect("[1]");
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let input = b.graph_input(x, 0, None);
    let weight = b.graph_input(w, 1, None);
    let r = b.tosa(TosaOp::TransposeConv2d, out, vec![out_pad, strides, fp32, no, input, weight, zero, zero, zero]);
    b.graph_output(r, 0, None);
    b.end_graph();
    b.finish()
}

/// TOSA's optional extra multiplies (`tosa_extra_multiplies`): a
/// TRANSPOSE_CONV2D may multiply the weights of taps without an input
/// element by zero, so an infinite weight there may make the output NaN; an
/// infinite input never meets a zero weight the operator does not have, so
/// its NaN on an output TOSA defines as the bias alone is wrong.
#[test]
fn transpose_conv2d_nan_from_an_extra_multiply_is_allowed_and_from_an_input_is_not() {
    use spvgraph_oracle::compliance::{compare, output_contexts, ReferenceTensor};
    let inf = f32::INFINITY;
    let gc = BTreeMap::new();
    // Stride 1, input [1, 2], weight [inf, 1]: TOSA's result is [1 * inf,
    // 2 * inf + 1, 2] = [inf, inf, 2]; output 2's inf tap would read input
    // 2, which does not exist, and 0 * inf there is an extra multiply.
    let m = transpose_conv_module(2, 2, 3, 1);
    let inputs = [f32s(&[1, 1, 2, 1], &[1.0, 2.0]), f32s(&[1, 1, 2, 1], &[inf, 1.0])];
    let contexts = output_contexts(&m, Some("main"), &inputs, &gc).expect("contexts");
    let ctx = contexts[0].as_ref().expect("TRANSPOSE_CONV2D's context");
    let exact = |v: &[f64]| ReferenceTensor::Precise { shape: vec![1, 1, 3, 1], values: v.to_vec() };
    let reference = exact(&[f64::INFINITY, f64::INFINITY, 2.0]);
    let bounds = exact(&[f64::INFINITY, f64::INFINITY, 2.0]);
    let judged = |candidate: &[f32]| compare(ctx, &reference, &f32s(&[1, 1, 3, 1], candidate), Some(&bounds));
    let nan_there = judged(&[inf, inf, f32::NAN]).expect("comparable");
    assert!(nan_there.pass, "{nan_there}");
    assert!(nan_there.to_string().contains("optional extra multiply"), "{nan_there}");
    // Not NaN where a real input meets the inf weight (out[1] is inf), nor
    // any other wrong value at the allowed place.
    assert!(!judged(&[inf, f32::NAN, f32::NAN]).expect("comparable").pass);
    assert!(!judged(&[inf, inf, -3.0]).expect("comparable").pass);
    assert!(judged(&[inf, inf, 2.0]).expect("comparable").pass);
    // The in-tree executor itself takes the extra multiply (its im2col
    // fills missing taps with zeros), and a backend agreeing is compliant.
    let words = m.encode_words().expect("encodes");
    assert!(run(&words, &inputs)[0].to_f64()[2].is_nan());

    // Stride 3, input [inf, 2], weight [1] (iree-transpose-conv2d-zero-taps-nan):
    // outputs 1 and 2 are the bias alone; the inf input times a padded zero
    // weight is no multiply of the operator, so NaN there is a finding.
    let referee = referee();
    let referee = referee.as_ref().map(|r| r as &dyn Oracle);
    let m = transpose_conv_module(2, 1, 4, 3);
    let words = m.encode_words().expect("encodes");
    let form = observed_form(&m, Some("main")).expect("observed form");
    let inputs = [f32s(&[1, 1, 2, 1], &[inf, 2.0]), f32s(&[1, 1, 1, 1], &[1.0])];
    assert_eq!(run(&words, &inputs)[0].to_f64(), [f64::INFINITY, 0.0, 0.0, 2.0]);
    let answer = vec![f32s(&[1, 1, 4, 1], &[inf, f32::NAN, f32::NAN, 2.0])];
    let j = judge_answers(
        &Named::new("backend"),
        &words,
        &form,
        &inputs,
        ExecOutcome::Outputs(answer.clone()),
        Some(ExecOutcome::Outputs(answer)),
        referee,
    );
    let w = wrong(&j.disagreements);
    assert_eq!(w.len(), 1, "{:#?}", j.disagreements);
    assert_eq!(w[0].operators, [TosaOp::TransposeConv2d]);
}

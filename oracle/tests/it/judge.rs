//! The one judgement (`spvgraph_oracle::judge`): every kind it names, on the
//! answers that make it. Backends are stand-ins with fixed answers (what is
//! tested is the decision, not a backend); the in-tree validator and
//! executor are real, and so is the TOSA reference model as the referee
//! where it is installed.

use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::attribution::Owner;
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::tosa_reference::TosaReferenceModel;
use spvgraph_oracle::judge::{
    judge, Disagreement, ExecAnswer, Expectation, Kind, Observations, Severity, ValidityAnswer,
};
use spvgraph_oracle::oracle::{self, Abnormal, Diagnostic, ExecOutcome, ExecRequest, Instance, Oracle};
use spvgraph_oracle::oracle::{Executor as _, OracleError, Refusal, RuleClaim};
use spvgraph_oracle::oracle::{ValidateOptions, Validator, Verdict};
use spvgraph_oracle::registry::InTree;
use std::collections::BTreeMap;

/// A backend or validator that answers what it is told to.
struct Fixed {
    instance: Instance,
    verdict: Option<Verdict>,
    outcome: Option<ExecOutcome>,
    claim: RuleClaim,
}

impl Fixed {
    fn backend(outcome: ExecOutcome) -> Fixed {
        Fixed {
            instance: Instance::release("backend"),
            verdict: None,
            outcome: Some(outcome),
            claim: RuleClaim::Unknown,
        }
    }

    fn validator(verdict: Verdict, claim: RuleClaim) -> Fixed {
        Fixed { instance: Instance::release("validator"), verdict: Some(verdict), outcome: None, claim }
    }
}

impl Oracle for Fixed {
    fn instance(&self) -> &Instance {
        &self.instance
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
    spvgraph_oracle::capabilities! { validator: yes, executor: yes, producer: no, reader: no, referee: no }
}

impl Validator for Fixed {
    fn validate(&self, _: &[u32], _: &ValidateOptions) -> Result<Verdict, OracleError> {
        let name = self.instance.name().into();
        self.verdict.clone().ok_or(OracleError::Unsupported { oracle: name, what: "validation" })
    }
    fn rule_claim(&self, _: RuleId) -> RuleClaim {
        self.claim
    }
}

impl oracle::Executor for Fixed {
    fn execute(&self, _: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        let name = self.instance.name().into();
        self.outcome.clone().ok_or(OracleError::Unsupported { oracle: name, what: "execution" })
    }
}

fn diag(rule: RuleId) -> Diagnostic {
    Diagnostic {
        rule: Some(rule),
        operator: None,
        message: format!("breaks {rule}"),
        word_offset: None,
        instruction: None,
    }
}

fn validity(expect: &Expectation, oracle: &dyn Oracle) -> Vec<Disagreement> {
    let obs = Observations {
        validity: vec![ValidityAnswer {
            oracle,
            verdict: oracle.validator().and_then(|v| v.validate(&[], &ValidateOptions::default())),
        }],
        ..Observations::default()
    };
    judge(expect, &obs)
}

fn kinds(ds: &[Disagreement]) -> Vec<Kind> {
    ds.iter().map(|d| d.kind).collect()
}

#[test]
fn validators_are_judged_by_what_they_claim() {
    let breaks = Expectation::Breaks { rule: RuleId::TosaShapeOutput, mutator: Some("m".into()) };
    let rejects = |rules: &[RuleId]| Verdict::Invalid(rules.iter().map(|r| diag(*r)).collect());
    // A valid module rejected.
    let v = Fixed::validator(rejects(&[RuleId::IdsUndefined]), RuleClaim::Rejects);
    let ds = validity(&Expectation::Valid, &v);
    assert_eq!(kinds(&ds), [Kind::RejectsValid]);
    assert_eq!(ds[0].rule, Some(RuleId::IdsUndefined));
    assert_eq!(ds[0].oracles, ["validator"]);
    // An exact validator: the rule alone is right, with others is extra, without it is wrong, none is a miss.
    let exact = |v| Fixed::validator(v, RuleClaim::Exact);
    assert!(validity(&breaks, &exact(rejects(&[RuleId::TosaShapeOutput]))).is_empty());
    let extra = validity(&breaks, &exact(rejects(&[RuleId::TosaShapeOutput, RuleId::IdsUndefined])));
    assert_eq!(kinds(&extra), [Kind::ExtraRules]);
    assert_eq!(extra[0].discriminator.as_deref(), Some("ids.undefined"));
    assert_eq!(kinds(&validity(&breaks, &exact(rejects(&[RuleId::IdsUndefined])))), [Kind::WrongRule]);
    let missed = validity(&breaks, &exact(Verdict::Valid));
    assert_eq!(kinds(&missed), [Kind::MissesRule]);
    assert_eq!(missed[0].discriminator.as_deref(), Some("mutator m"));
    // A validator that checks the rule in its own words: any rejection will do.
    assert!(validity(&breaks, &Fixed::validator(rejects(&[RuleId::IdsUndefined]), RuleClaim::Rejects)).is_empty());
    assert_eq!(kinds(&validity(&breaks, &Fixed::validator(Verdict::Valid, RuleClaim::Rejects))), [Kind::MissesRule]);
    // One documented not to check it: accepting is fine, rejecting is stricter.
    assert!(validity(&breaks, &Fixed::validator(Verdict::Valid, RuleClaim::Accepts)).is_empty());
    let stricter = validity(&breaks, &Fixed::validator(rejects(&[RuleId::IdsUndefined]), RuleClaim::Accepts));
    assert_eq!(kinds(&stricter), [Kind::Stricter]);
    assert_eq!(stricter[0].severity, Severity::Low);
    // Nothing known: nothing to say.
    assert!(validity(&breaks, &Fixed::validator(Verdict::Valid, RuleClaim::Unknown)).is_empty());
}

#[test]
fn the_in_tree_validator_and_spirv_val_are_judged_through_their_claims() {
    let in_tree = InTree::default();
    let words = spvgraph_ir::samples::elementwise_chain(3).encode_words().expect("encodes");
    assert!(validity(&Expectation::Valid, &in_tree).len() <= 1, "an empty module is judged, not a panic");
    let obs = Observations {
        validity: vec![ValidityAnswer {
            oracle: &in_tree,
            verdict: in_tree.validate(&words, &ValidateOptions::default()),
        }],
        ..Observations::default()
    };
    assert!(judge(&Expectation::Valid, &obs).is_empty());
    let expect = Expectation::Breaks { rule: RuleId::LayoutMemoryModel, mutator: None };
    assert_eq!(kinds(&judge(&expect, &obs)), [Kind::MissesRule], "the sample module breaks nothing");
}

/// A one-operator integer graph: `ADD(a, b)` on i32 [4]; with `shaped`
/// false, its interface tensors are unshaped (a valid module whose pipeline
/// breaks `vulkan.interface.shaped`).
fn add_request(shaped: bool) -> (Vec<u32>, Vec<TensorData>) {
    use spvgraph_ir::builder::ModuleBuilder;
    use spvgraph_ir::elem::ElemType;
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I32, if shaped { Some(&[4]) } else { None });
    let gty = b.type_graph(&[t, t], &[t]);
    let vars: Vec<_> = (0..3).map(|i| b.interface_variable(t, 0, i)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "add", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.graph_input(t, 1, None);
    let s = b.tosa(TosaOp::Add, t, vec![x, y]);
    b.graph_output(s, 0, None);
    b.end_graph();
    let words = b.finish().encode_words().expect("encodes");
    let a = TensorData::from_bits(ElemType::I32, &[4], &[1, 2, 3, 4]).expect("tensor");
    let c = TensorData::from_bits(ElemType::I32, &[4], &[10, 20, 30, 40]).expect("tensor");
    (words, vec![a, c])
}

fn run_backend(
    expect: &Expectation,
    outcome: ExecOutcome,
    referee: Option<&dyn Oracle>,
    shaped: bool,
) -> Vec<Disagreement> {
    run_backend_with(expect, outcome, referee, shaped, false)
}

/// [`run_backend`], with consumers' answers on invalid modules judged
/// strictly (`--strict-consumers`) or not.
fn run_backend_with(
    expect: &Expectation,
    outcome: ExecOutcome,
    referee: Option<&dyn Oracle>,
    shaped: bool,
    strict_consumers: bool,
) -> Vec<Disagreement> {
    let (words, inputs) = add_request(shaped);
    let case =
        Case { expect, words: &words, entry: "add", inputs: &inputs, operators: vec![TosaOp::Add], strict_consumers };
    judge_backend(&case, outcome, referee)
}

/// A case one backend answers.
struct Case<'a> {
    expect: &'a Expectation,
    words: &'a [u32],
    entry: &'a str,
    inputs: &'a [TensorData],
    operators: Vec<TosaOp>,
    /// Consumers' answers on invalid modules judged as findings.
    strict_consumers: bool,
}

/// Judges `outcome`, a backend's answer to `case`, against the in-tree
/// executor, with `referee` settling disagreements when given.
fn judge_backend(case: &Case<'_>, outcome: ExecOutcome, referee: Option<&dyn Oracle>) -> Vec<Disagreement> {
    let constants = BTreeMap::new();
    let request = ExecRequest {
        module: case.words,
        entry_point: Some(case.entry),
        inputs: case.inputs,
        graph_constants: &constants,
    };
    let reference = Executor::default().execute(&request).expect("answers");
    let backend = Fixed::backend(outcome);
    let obs = Observations {
        request: Some(request),
        reference: Some(reference),
        executions: vec![ExecAnswer::plain(&backend, backend.execute(&request))],
        referee,
        operators: case.operators.clone(),
        strict_consumers: case.strict_consumers,
        ..Observations::default()
    };
    judge(case.expect, &obs)
}

fn i32s(v: &[i64]) -> TensorData {
    let bits: Vec<u64> = v.iter().map(|&x| x as u64).collect();
    TensorData::from_bits(spvgraph_ir::elem::ElemType::I32, &[v.len()], &bits).expect("tensor")
}

#[test]
fn backends_that_crash_hang_or_refuse_are_named() {
    let valid = Expectation::Valid;
    let crash =
        run_backend(&valid, ExecOutcome::Abnormal { how: Abnormal::Signal(11), detail: "boom".into() }, None, true);
    assert_eq!(kinds(&crash), [Kind::Crash]);
    assert_eq!((crash[0].severity, crash[0].operators.clone()), (Severity::High, vec![TosaOp::Add]));
    let hang = run_backend(&valid, ExecOutcome::Abnormal { how: Abnormal::Timeout, detail: String::new() }, None, true);
    assert_eq!(kinds(&hang), [Kind::Timeout]);
    let refused =
        ExecOutcome::Refused { kind: Refusal::Rejected, reason: "vkCreateDataGraphPipelinesARM failed".into() };
    assert_eq!(kinds(&run_backend(&valid, refused.clone(), None, true)), [Kind::RefusedValid]);
    // A pipeline-creation rule the module breaks explains the refusal.
    let ds = run_backend(&valid, refused, None, false);
    assert!(ds.is_empty(), "{ds:#?}");
    let unsupported = ExecOutcome::Refused { kind: Refusal::Unsupported, reason: "no bf16".into() };
    assert!(run_backend(&valid, unsupported, None, true).is_empty());
}

#[test]
fn invalid_modules_that_run_are_accepts_invalid_once_per_rule() {
    let breaks = Expectation::Breaks { rule: RuleId::TosaShapeOutput, mutator: Some("m".into()) };
    let ds = run_backend_with(&breaks, ExecOutcome::Outputs(vec![i32s(&[0, 0, 0, 0])]), None, true, true);
    assert_eq!(kinds(&ds), [Kind::AcceptsInvalid]);
    assert_eq!(ds[0].severity, Severity::Low);
    let other = run_backend_with(&breaks, ExecOutcome::Outputs(vec![i32s(&[1, 1, 1, 1])]), None, true, true);
    assert_eq!(ds[0].signature(), other[0].signature(), "one signature per rule and backend");
    // Refusing an invalid module is right; crashing on it is low severity.
    let refused = ExecOutcome::Refused { kind: Refusal::Rejected, reason: "bad".into() };
    assert!(run_backend_with(&breaks, refused, None, true, true).is_empty());
    let abort = ExecOutcome::Abnormal { how: Abnormal::Signal(6), detail: String::new() };
    let crash = run_backend_with(&breaks, abort, None, true, true);
    assert_eq!((kinds(&crash), crash[0].severity), (vec![Kind::Crash], Severity::Low));
}

/// What a Vulkan consumer does with an invalid module is undefined
/// behaviour: by default its accepts-invalid and its crash on one are notes,
/// not findings; only a valid module's crash is a finding.
#[test]
fn a_consumers_answers_on_invalid_modules_are_notes_unless_strict() {
    let breaks = Expectation::Breaks { rule: RuleId::TosaShapeOutput, mutator: Some("m".into()) };
    let ran = run_backend(&breaks, ExecOutcome::Outputs(vec![i32s(&[0, 0, 0, 0])]), None, true);
    assert_eq!((kinds(&ran), ran[0].severity), (vec![Kind::AcceptsInvalid], Severity::Note));
    let abort = ExecOutcome::Abnormal { how: Abnormal::Signal(6), detail: String::new() };
    let crash = run_backend(&breaks, abort.clone(), None, true);
    assert_eq!((kinds(&crash), crash[0].severity), (vec![Kind::Crash], Severity::Note));
    // An invalid module known only as invalid (no rule) is judged the same way.
    let invalid = Expectation::Invalid { rules: Vec::new(), mutator: None };
    let ran = run_backend(&invalid, ExecOutcome::Outputs(vec![i32s(&[0, 0, 0, 0])]), None, true);
    assert_eq!((kinds(&ran), ran[0].severity, ran[0].rule), (vec![Kind::AcceptsInvalid], Severity::Note, None));
    // On a valid module a crash stays a high-severity finding.
    let crash = run_backend(&Expectation::Valid, abort, None, true);
    assert_eq!((kinds(&crash), crash[0].severity), (vec![Kind::Crash], Severity::High));
}

/// An expectation of "invalid" (from the user, or the in-tree validator's
/// verdict) asks only that validators checking one of its rules reject.
#[test]
fn an_invalid_expectation_judges_only_validators_that_check_its_rules() {
    let rules = vec![RuleId::TosaShapeOutput];
    let invalid = Expectation::Invalid { rules: rules.clone(), mutator: None };
    let accepts_checker = Fixed::validator(Verdict::Valid, RuleClaim::Rejects);
    assert_eq!(kinds(&validity(&invalid, &accepts_checker)), [Kind::MissesRule]);
    let accepts_blind = Fixed::validator(Verdict::Valid, RuleClaim::Accepts);
    assert!(validity(&invalid, &accepts_blind).is_empty());
    // Any rejection will do: which rules a validator names is not judged.
    let other_rule = Fixed::validator(Verdict::Invalid(vec![diag(RuleId::LayoutMemoryModel)]), RuleClaim::Exact);
    assert!(validity(&invalid, &other_rule).is_empty());
    assert!(validity(&Expectation::Invalid { rules: Vec::new(), mutator: None }, &accepts_checker).is_empty());
}

#[test]
fn outputs_are_compared_and_the_referee_names_the_culprit() {
    let valid = Expectation::Valid;
    // Right: 11, 22, 33, 44.
    assert!(run_backend(&valid, ExecOutcome::Outputs(vec![i32s(&[11, 22, 33, 44])]), None, true).is_empty());
    // Wrong, and no referee: both are named.
    let wrong = ExecOutcome::Outputs(vec![i32s(&[11, 22, 33, 45])]);
    let ds = run_backend(&valid, wrong.clone(), None, true);
    assert_eq!(kinds(&ds), [Kind::WrongOutput]);
    assert_eq!(ds[0].oracles, ["backend", "in-tree"]);
    assert_eq!(ds[0].operators, [TosaOp::Add]);
    // Wrong shape.
    assert_eq!(
        kinds(&run_backend(&valid, ExecOutcome::Outputs(vec![i32s(&[11, 22])]), None, true)),
        [Kind::WrongOutput]
    );
    // With the TOSA reference model as referee, the backend alone is the culprit.
    let model = TosaReferenceModel::discover();
    match model.available() {
        Ok(()) => {
            let ds = run_backend(&valid, wrong, Some(&model), true);
            assert_eq!(kinds(&ds), [Kind::WrongOutput]);
            assert_eq!(ds[0].oracles, ["backend"], "{}", ds[0].detail);
            assert!(ds[0].detail.contains("in-tree: compliant"), "all three verdicts: {}", ds[0].detail);
        }
        Err(e) => {
            assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and {e}");
            eprintln!("skipping the referee part: {e}");
        }
    }
}

#[test]
fn documented_discrepancies_are_marked() {
    let sv = spvgraph_oracle::external::spirv_val::SpirvVal::with_paths(None, None);
    let k = sv.known_discrepancies().first().expect("spirv-val has documented discrepancies");
    let rule = k.rule.expect("a rule");
    // Stand in spirv-val's answer with its documented behaviour, under its name.
    struct Named<'a>(&'a spvgraph_oracle::external::spirv_val::SpirvVal);
    impl Oracle for Named<'_> {
        fn instance(&self) -> &Instance {
            self.0.instance()
        }
        fn available(&self) -> Result<(), OracleError> {
            Ok(())
        }
        fn version(&self) -> Option<String> {
            None
        }
        fn components(&self) -> &'static [Owner] {
            self.0.components()
        }
        fn known_discrepancies(&self) -> &'static [spvgraph_oracle::oracle::KnownDiscrepancy] {
            self.0.known_discrepancies()
        }
        spvgraph_oracle::capabilities! { validator: yes, executor: no, producer: no, reader: no, referee: no }
    }
    impl Validator for Named<'_> {
        fn validate(&self, _: &[u32], _: &ValidateOptions) -> Result<Verdict, OracleError> {
            Ok(Verdict::Valid)
        }
        fn rule_claim(&self, r: RuleId) -> RuleClaim {
            self.0.rule_claim(r)
        }
    }
    let named = Named(&sv);
    let expect = Expectation::Breaks { rule, mutator: k.mutator.map(str::to_string) };
    let ds = validity(&expect, &named);
    assert_eq!(kinds(&ds), [Kind::MissesRule]);
    assert_eq!(ds[0].documented.as_ref().map(|d| d.finding.as_str()), Some(k.finding));
    // Another mutator breaking the same rule is not the documented case.
    let other = Expectation::Breaks { rule, mutator: Some("another-mutator".into()) };
    assert!(validity(&other, &named)[0].documented.is_none());
}

/// fp32 `out0 = CLAMP(ADD(a, b))` and `out1 = REDUCE_SUM(a)`: the ADD rounds,
/// so the precise (unrounded) run condemns every fp32 CLAMP result, and
/// REDUCE_SUM's dot-product mode needs a bounds tensor, so two runs cannot be
/// compared directly. A producer whose module computes exactly what the case
/// computes must not be judged wrong there (the hunt reported such cases as
/// `producer-wrong-semantics` of model-converter).
#[test]
fn a_producer_is_not_condemned_where_the_referee_condemns_the_case_too() {
    use spvgraph_ir::builder::ModuleBuilder;
    use spvgraph_ir::elem::ElemType;
    use spvgraph_oracle::judge::ProductionAnswer;
    use spvgraph_oracle::oracle::ProduceOutcome;
    let model = TosaReferenceModel::discover();
    if let Err(e) = model.available() {
        assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and {e}");
        eprintln!("skipping: {e}");
        return;
    }
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[4]));
    let s = b.type_tensor(ElemType::Fp32, Some(&[1]));
    let gty = b.type_graph(&[t, t], &[t, s]);
    let vars: Vec<_> = [t, t, t, s].iter().enumerate().map(|(i, &ty)| b.interface_variable(ty, 0, i as u32)).collect();
    let (lo, hi) = (
        b.const_scalar(ElemType::Fp32, u64::from((-100f32).to_bits())),
        b.const_scalar(ElemType::Fp32, u64::from(100f32.to_bits())),
    );
    let propagate = b.const_u32(1);
    let axis = b.const_u32(0);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.graph_input(t, 1, None);
    let sum = b.tosa(TosaOp::Add, t, vec![x, y]);
    let clamped = b.tosa(TosaOp::Clamp, t, vec![lo, hi, propagate, sum]);
    let reduced = b.tosa(TosaOp::ReduceSum, s, vec![axis, x]);
    b.graph_output(clamped, 0, None);
    b.graph_output(reduced, 1, None);
    b.end_graph();
    let words = b.finish().encode_words().expect("encodes");
    let f32s = |v: &[f32]| {
        let bits: Vec<u64> = v.iter().map(|x| u64::from(x.to_bits())).collect();
        TensorData::from_bits(ElemType::Fp32, &[v.len()], &bits).expect("tensor")
    };
    // 1 + 1e-8 rounds to 1 in fp32; the precise run keeps 1.00000001.
    let inputs = vec![f32s(&[1.0, 2.0, 3.0, 4.0]), f32s(&[1e-8, 3e-8, 0.5, 0.25])];
    let constants = BTreeMap::new();
    let request =
        ExecRequest { module: &words, entry_point: Some("main"), inputs: &inputs, graph_constants: &constants };
    let reference = Executor::default().execute(&request).expect("answers");
    let producer = spvgraph_oracle::external::model_converter::ModelConverter::discover();
    let produced = |outputs: ExecOutcome| ProductionAnswer {
        producer: &producer,
        debug_info: false,
        outcome: Ok(ProduceOutcome::Module {
            words: words.clone(),
            graph_constants: BTreeMap::new(),
            interface: Default::default(),
            notes: Vec::new(),
            container: None,
        }),
        validity: Vec::new(),
        outputs: Some(Ok(outputs)),
    };
    let observe = |answer: ProductionAnswer<'_>| {
        let obs = Observations {
            request: Some(request),
            reference: Some(reference.clone()),
            productions: vec![answer],
            referee: Some(&model),
            operators: vec![TosaOp::Add, TosaOp::Clamp, TosaOp::ReduceSum],
            ..Observations::default()
        };
        judge(&Expectation::Valid, &obs)
    };
    let ds = observe(produced(reference.clone()));
    assert!(ds.is_empty(), "the same outputs as the case: {ds:#?}");
    // A produced module that really computes something else still is a finding.
    let ExecOutcome::Outputs(mut wrong) = reference.clone() else { panic!("outputs") };
    wrong[0] = f32s(&[7.0, 2.0, 3.5, 4.25]);
    assert_eq!(kinds(&observe(produced(ExecOutcome::Outputs(wrong)))), [Kind::ProducerWrongSemantics]);
}

// ---- floating-point judgement: flushed subnormals, FFT, REDUCE_PRODUCT ----

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;

fn f32t(shape: &[usize], v: &[f32]) -> TensorData {
    let bits: Vec<u64> = v.iter().map(|x| u64::from(x.to_bits())).collect();
    TensorData::from_bits(ElemType::Fp32, shape, &bits).expect("tensor")
}

/// [`judge_backend`] on a valid case with entry point `main`.
fn judge_answer(
    words: &[u32],
    inputs: &[TensorData],
    outcome: ExecOutcome,
    referee: Option<&dyn Oracle>,
    operators: Vec<TosaOp>,
) -> Vec<Disagreement> {
    let case = Case { expect: &Expectation::Valid, words, entry: "main", inputs, operators, strict_consumers: false };
    judge_backend(&case, outcome, referee)
}

/// The TOSA reference model, or `None` after a skip notice (a failure under `CI=true`).
fn referee_model() -> Option<TosaReferenceModel> {
    let model = TosaReferenceModel::discover();
    match model.available() {
        Ok(()) => Some(model),
        Err(e) => {
            assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and {e}");
            eprintln!("skipping the referee part: {e}");
            None
        }
    }
}

/// `out0 = OP(x)`, `out1 = x` (a pass-through), fp32 of `shape`.
fn unary_graph(op: TosaOp, shape: &[u32]) -> Vec<u32> {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(shape));
    let gty = b.type_graph(&[t], &[t, t]);
    let vars = (0..3).map(|i| b.interface_variable(t, 0, i)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.tosa(op, t, vec![x]);
    b.graph_output(y, 0, None);
    b.graph_output(x, 1, None);
    b.end_graph();
    b.finish().encode_words().expect("encodes")
}

fn wrong_outputs(ds: &[Disagreement]) -> Vec<&Disagreement> {
    ds.iter().filter(|d| d.kind == Kind::WrongOutput).collect()
}

/// IREE answers +inf for RSQRT of the smallest fp32 subnormal: it flushes the
/// input, which TOSA allows. A result is compliant against the reference as
/// given or against the flushed one, one or the other for a whole output.
#[test]
fn flushed_subnormal_inputs_are_accepted_either_way() {
    let tiny = f32::from_bits(1);
    let x = f32t(&[4], &[tiny, 4.0, 0.25, 1e-40]);
    let words = unary_graph(TosaOp::Rsqrt, &[4]);
    let given = (1.0 / f64::from(tiny).sqrt()) as f32;
    let given_small = (1.0 / f64::from(1e-40f32).sqrt()) as f32;
    let flushing = vec![f32t(&[4], &[f32::INFINITY, 0.5, 2.0, f32::INFINITY]), x.clone()];
    let as_given = vec![f32t(&[4], &[given, 0.5, 2.0, given_small]), x.clone()];
    // Flushed for one element and not for the other: no implementation does both.
    let mixed = vec![f32t(&[4], &[f32::INFINITY, 0.5, 2.0, given_small]), x.clone()];
    let model = referee_model();
    let referees: Vec<Option<&dyn Oracle>> = match &model {
        Some(m) => vec![None, Some(m)],
        None => vec![None],
    };
    for referee in referees {
        let with = referee.map_or("without a referee", |_| "with the referee");
        let ds =
            judge_answer(&words, std::slice::from_ref(&x), ExecOutcome::Outputs(flushing.clone()), referee, vec![]);
        assert!(wrong_outputs(&ds).is_empty(), "flushed, {with}: {ds:#?}");
        let ds =
            judge_answer(&words, std::slice::from_ref(&x), ExecOutcome::Outputs(as_given.clone()), referee, vec![]);
        assert!(wrong_outputs(&ds).is_empty(), "as given, {with}: {ds:#?}");
        let ds = judge_answer(&words, std::slice::from_ref(&x), ExecOutcome::Outputs(mixed.clone()), referee, vec![]);
        assert_eq!(kinds(&ds), [Kind::WrongOutput], "mixed, {with}");
        assert_eq!(ds[0].operators, [TosaOp::Rsqrt]);
    }
}

/// LOG of a flushed subnormal is LOG(0) = −∞ by the operator's table: IREE's
/// answer. The documented lavapipe answer, −88 for 1e-40, is neither that nor
/// LOG(1e-40) = −92.1, and stays a wrong output.
#[test]
fn log_of_a_flushed_subnormal_must_be_minus_infinity() {
    let Some(model) = referee_model() else { return };
    let x = f32t(&[3], &[1e-40, 1.0, 2.0]);
    let words = unary_graph(TosaOp::Log, &[3]);
    let ln2 = std::f32::consts::LN_2;
    let flushing = vec![f32t(&[3], &[f32::NEG_INFINITY, 0.0, ln2]), x.clone()];
    let ds = judge_answer(&words, std::slice::from_ref(&x), ExecOutcome::Outputs(flushing), Some(&model), vec![]);
    assert!(wrong_outputs(&ds).is_empty(), "{ds:#?}");
    let lavapipe = vec![f32t(&[3], &[-88.029_69, 0.0, ln2]), x.clone()];
    let ds = judge_answer(&words, std::slice::from_ref(&x), ExecOutcome::Outputs(lavapipe), Some(&model), vec![]);
    assert_eq!(kinds(&ds), [Kind::WrongOutput]);
    assert_eq!(ds[0].oracles, ["backend"], "{}", ds[0].detail);
}

/// `(re, im) = FFT2D(x, y)` on fp32 [1, 4, 4], both outputs.
fn fft_graph() -> Vec<u32> {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[1, 4, 4]));
    let pair = b.type_struct(vec![t, t]);
    let gty = b.type_graph(&[t, t], &[t, t]);
    let vars = (0..4).map(|i| b.interface_variable(t, 0, i)).collect();
    let no = b.const_bool(false);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.graph_input(t, 1, None);
    let r = b.tosa(TosaOp::Fft2d, pair, vec![no, no, x, y]);
    let re = b.composite_extract(t, r, 0);
    let im = b.composite_extract(t, r, 1);
    b.graph_output(re, 0, None);
    b.graph_output(im, 1, None);
    b.end_graph();
    b.finish().encode_words().expect("encodes")
}

/// With a zero imaginary input, FFT2D's imaginary outputs at (0, 2), (2, 0)
/// and (2, 2) are sums of x·sin(kπ): about 1e-16 in fp64, so the reference
/// and its bound collapse, and the TOSA reference model's own fp32 result
/// fails the rule (as does IREE's exact 0, the right answer). Those elements
/// are judged for no backend and reported once, charged to nobody.
#[test]
fn fft_elements_the_reference_model_fails_are_judged_for_no_backend() {
    let Some(model) = referee_model() else { return };
    let words = fft_graph();
    let shape = [1, 4, 4];
    let inputs = [f32t(&shape, &[1.0; 16]), f32t(&shape, &[0.0; 16])];
    // The exact DFT of a constant: 16 at (0, 0), 0 everywhere else.
    let mut re = [0.0f32; 16];
    re[0] = 16.0;
    let exact = ExecOutcome::Outputs(vec![f32t(&shape, &re), f32t(&shape, &[0.0; 16])]);
    let ds = judge_answer(&words, &inputs, exact, Some(&model), vec![TosaOp::Fft2d]);
    assert_eq!(kinds(&ds), [Kind::CheckerDisagreesWithReference], "{ds:#?}");
    assert_eq!(ds[0].severity, Severity::Note, "a note, never a finding");
    assert!(ds[0].oracles.is_empty(), "charged to no backend");
    assert_eq!(ds[0].operators, [TosaOp::Fft2d]);
    assert!(ds[0].detail.contains("output 1"), "{}", ds[0].detail);
    // A value that is wrong where the rule does hold is still the backend's.
    re[0] = 17.0;
    let wrong = ExecOutcome::Outputs(vec![f32t(&shape, &re), f32t(&shape, &[0.0; 16])]);
    let ds = judge_answer(&words, &inputs, wrong, Some(&model), vec![TosaOp::Fft2d]);
    let mut got = kinds(&ds);
    got.sort();
    assert_eq!(got, [Kind::WrongOutput, Kind::CheckerDisagreesWithReference], "{ds:#?}");
    let w = wrong_outputs(&ds);
    assert_eq!(
        (w[0].oracles.clone(), w[0].discriminator.clone()),
        (vec!["backend".to_string()], Some("output 0".into()))
    );
}

/// `out = REDUCE_PRODUCT(x, axis 1)` on fp32 [2, 3].
fn reduce_product_graph() -> Vec<u32> {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[2, 3]));
    let o = b.type_tensor(ElemType::Fp32, Some(&[2, 1]));
    let gty = b.type_graph(&[t], &[o]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(o, 0, 1)];
    let axis = b.const_u32(1);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let p = b.tosa(TosaOp::ReduceProduct, o, vec![axis, x]);
    b.graph_output(p, 0, None);
    b.end_graph();
    b.finish().encode_words().expect("encodes")
}

/// 1e30 · 1e30 · 0: in fp32, as the pseudocode multiplies, the running
/// product overflows and then meets the zero (NaN, what IREE and the TOSA
/// reference model answer); in fp64 it is 0. That element is not judged; the
/// ordinary one next to it is.
#[test]
fn a_product_that_overflows_before_a_zero_is_not_judged() {
    let words = reduce_product_graph();
    let x = [f32t(&[2, 3], &[1e30, 1e30, 0.0, 2.0, 3.0, 4.0])];
    let model = referee_model();
    let referees: Vec<Option<&dyn Oracle>> = match &model {
        Some(m) => vec![None, Some(m)],
        None => vec![None],
    };
    for referee in referees {
        let nan = ExecOutcome::Outputs(vec![f32t(&[2, 1], &[f32::NAN, 24.0])]);
        let ds = judge_answer(&words, &x, nan, referee, vec![TosaOp::ReduceProduct]);
        assert!(ds.is_empty(), "{ds:#?}");
        let wrong = ExecOutcome::Outputs(vec![f32t(&[2, 1], &[f32::NAN, 25.0])]);
        let ds = judge_answer(&words, &x, wrong, referee, vec![TosaOp::ReduceProduct]);
        assert_eq!(kinds(&ds), [Kind::WrongOutput]);
        assert!(ds[0].detail.contains("unjudged"), "the reason is said: {}", ds[0].detail);
    }
}

/// One version of a tool: a stand-in answering `outcome`, named
/// `backend@CHANNEL` with tool `backend` (as the registry names channel instances).
struct Version {
    inner: Fixed,
    instance: Instance,
    version: &'static str,
}

impl Oracle for Version {
    fn instance(&self) -> &Instance {
        &self.instance
    }
    fn version(&self) -> Option<String> {
        Some(self.version.to_string())
    }
    fn available(&self) -> Result<(), OracleError> {
        Ok(())
    }
    fn components(&self) -> &'static [Owner] {
        &[]
    }
    spvgraph_oracle::capabilities! { validator: no, executor: yes, producer: no, reader: no, referee: no }
}

impl oracle::Executor for Version {
    fn execute(&self, r: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        self.inner.execute(r)
    }
}

/// The ADD case run by the release and the `dev` channel of one backend.
fn two_versions(release: ExecOutcome, dev: ExecOutcome) -> Vec<Disagreement> {
    let (words, inputs) = add_request(true);
    let constants = BTreeMap::new();
    let request =
        ExecRequest { module: &words, entry_point: Some("add"), inputs: &inputs, graph_constants: &constants };
    let reference = Executor::default().execute(&request).expect("answers");
    let old =
        Version { inner: Fixed::backend(release), instance: Instance::release("backend"), version: "backend 0.11.0" };
    let new = Version {
        inner: Fixed::backend(dev),
        instance: Instance::on("backend", Some("dev")),
        version: "backend 0.12.0.dev20261024",
    };
    let obs = Observations {
        request: Some(request),
        reference: Some(reference),
        executions: vec![
            ExecAnswer { oracle: &old, outcome: old.execute(&request), observed: None },
            ExecAnswer { oracle: &new, outcome: new.execute(&request), observed: None },
        ],
        operators: vec![TosaOp::Add],
        ..Observations::default()
    };
    judge(&Expectation::Valid, &obs)
}

#[test]
fn two_versions_of_one_tool_disagreeing_are_a_regression_or_a_fix() {
    let right = ExecOutcome::Outputs(vec![i32s(&[11, 22, 33, 44])]);
    let crash = ExecOutcome::Abnormal { how: Abnormal::Signal(11), detail: "boom".into() };
    let wrong = ExecOutcome::Outputs(vec![i32s(&[11, 22, 33, 45])]);
    // Newer wrong, older right: the newer one's own finding becomes a regression naming both versions.
    let ds = two_versions(right.clone(), crash.clone());
    assert_eq!(kinds(&ds), [Kind::Regression], "{ds:#?}");
    assert_eq!(ds[0].oracles, ["backend@dev", "backend"]);
    assert_eq!(
        (ds[0].severity, ds[0].discriminator.as_deref()),
        (Severity::High, Some("crash, killed by signal 11 (SIGSEGV)"))
    );
    assert!(ds[0].detail.contains("0.12.0.dev20261024") && ds[0].detail.contains("0.11.0"), "{}", ds[0].detail);
    assert_eq!(kinds(&two_versions(right.clone(), wrong.clone())), [Kind::Regression]);
    // Older wrong, newer right: the release's finding stays, and the fix is one of its own.
    let ds = two_versions(wrong.clone(), right.clone());
    assert_eq!(kinds(&ds), [Kind::WrongOutput, Kind::Fix], "{ds:#?}");
    assert_eq!(
        (ds[1].oracles.clone(), ds[1].severity),
        (vec!["backend".to_string(), "backend@dev".into()], Severity::Low)
    );
    // Both wrong, or both right: nothing between the versions.
    assert_eq!(kinds(&two_versions(crash.clone(), wrong.clone())), [Kind::Crash, Kind::WrongOutput]);
    assert!(two_versions(right.clone(), right.clone()).is_empty());
    // A version that cannot run the case says nothing about the other.
    let unsupported = ExecOutcome::Refused { kind: Refusal::Unsupported, reason: "no i32".into() };
    assert_eq!(kinds(&two_versions(unsupported, crash)), [Kind::Crash]);
}

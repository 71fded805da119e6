//! Every equivalent form (`spvgraph_oracle::forms`) of generated valid
//! cases: the rewritten modules are valid (the in-tree validator, which
//! `forms::apply` runs, and spirv-val), and the in-tree executor computes
//! the same bits from them as from the case. Each form must apply to some
//! of the cases, so that the test says something about every one.
//!
//! `FORMS_SEEDS` sets the number of generated cases (default 400).

use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::attribution::Owner;
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::forms::run::run_form;
use spvgraph_oracle::forms::{apply, rescue, Form, FormError};
use spvgraph_oracle::judge::{judge, ExecAnswer, Expectation, FormAnswer, Kind, Observations, AS_GIVEN};
use spvgraph_oracle::oracle::{self, ExecOutcome, ExecRequest, Instance, Oracle, OracleError, OwnedExecRequest};
use spvgraph_oracle::oracle::{Executor as _, Refusal, ValidateOptions, Validator as _, Verdict};
use std::collections::BTreeMap;

fn seeds() -> u64 {
    std::env::var("FORMS_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(400)
}

/// The request of generated case `seed` (its first entry point).
fn request(seed: u64, config: &Config) -> Option<OwnedExecRequest> {
    spvgraph_testkit::request(&generate_from_seed(seed, config), 0)
}

fn same_bits(a: &ExecOutcome, b: &ExecOutcome) -> bool {
    match (a, b) {
        (ExecOutcome::Outputs(x), ExecOutcome::Outputs(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| p.elem() == q.elem() && p.shape() == q.shape() && p.to_bits() == q.to_bits())
        }
        _ => false,
    }
}

/// Form `form` of `req` (whose in-tree outputs are `plain`), where it
/// applies: valid for spirv-val (when there is one) and the same bits from
/// the in-tree executor, else a line in `failures`. Whether it applied.
fn check_form(
    form: Form,
    req: &OwnedExecRequest,
    plain: &ExecOutcome,
    spirv_val: Option<&SpirvVal>,
    failures: &mut Vec<String>,
    seed: u64,
) -> bool {
    let r = match apply(form, req) {
        Ok(r) => r,
        Err(FormError::NothingToChange | FormError::NotApplicable(_)) => return false,
        Err(e) => {
            failures.push(format!("seed {seed}, {form}: {e}"));
            return false;
        }
    };
    if let Some(sv) = spirv_val {
        for (k, stage) in r.stages.iter().enumerate() {
            match sv.validate(&stage.request.module, &ValidateOptions::default()) {
                Ok(Verdict::Valid) => {}
                other => failures.push(format!("seed {seed}, {form}, stage {k}: spirv-val: {other:?}")),
            }
        }
    }
    match run_form(&Executor::default(), &r) {
        Ok(o) if same_bits(&o, plain) => {}
        other => failures.push(format!("seed {seed}, {form}: the executor gives {other:?}")),
    }
    true
}

#[test]
fn every_form_is_valid_and_computes_the_same_bits() {
    let spirv_val = spvgraph_testkit::oracle(SpirvVal::discover());
    let config = Config::default();
    let executor = Executor::default();
    let mut applied: BTreeMap<Form, u64> = Form::ALL.iter().map(|f| (*f, 0)).collect();
    let mut failures = Vec::new();
    let mut rescued = 0;
    for seed in 0..seeds() {
        let Some(req) = request(seed, &config) else { continue };
        let Ok(plain @ ExecOutcome::Outputs(_)) = executor.execute(&req.request()) else { continue };
        for form in Form::ALL {
            if check_form(form, &req, &plain, spirv_val.as_ref(), &mut failures, seed) {
                *applied.entry(form).or_default() += 1;
            }
        }
        if let Some(r) = rescue(&req) {
            rescued += 1;
            match run_form(&executor, &r) {
                Ok(o) if same_bits(&o, &plain) => {}
                other => failures.push(format!("seed {seed}, rescue {}: the executor gives {other:?}", r.label())),
            }
        }
    }
    eprintln!("cases per form: {applied:?}; rescue forms: {rescued}");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    let never: Vec<&Form> = applied.iter().filter(|(_, n)| **n == 0).map(|(f, _)| f).collect();
    assert!(never.is_empty(), "forms that applied to none of the cases: {never:?}");
}

/// The array-elements form leaves out the input elements the graph does
/// not read (with their request inputs), so that it brings in no unread
/// graph input (a construct of its own, which the emulation layer answers
/// with zeros); and a tensor-array case is rescued through it.
#[test]
fn array_elements_leaves_out_unread_elements_and_rescues_tensor_arrays() {
    use spvgraph_oracle::features::{detect_words, Feature};
    let config = Config::default();
    let (mut dropped, mut rescued) = (0, 0);
    for seed in 0..seeds() {
        let Some(req) = request(seed, &config) else { continue };
        let Ok(r) = apply(Form::ArrayElements, &req) else { continue };
        let Some(form) = r.single() else { panic!("seed {seed}: the array-elements form has one stage") };
        let before = detect_words(&req.module, None);
        let after = detect_words(&form.module, None);
        if !before.contains(&Feature::UnreadInput) {
            assert!(!after.contains(&Feature::UnreadInput), "seed {seed}: the form has an unread input");
        }
        let module = spvgraph_ir::Module::decode_words(&form.module).expect("a form decodes");
        let iface = spvgraph_oracle::exec::interface(&module, form.entry_point.as_deref()).expect("an interface");
        let arrays = iface.inputs.iter().chain(&iface.outputs).any(|p| p.element.is_some());
        assert!(!arrays, "seed {seed}: a tensor array is left");
        if form.inputs.len() < req.inputs.len() {
            dropped += 1;
        }
        if rescue(&req).is_some_and(|r| r.forms.contains(&Form::ArrayElements)) {
            rescued += 1;
        }
    }
    eprintln!("cases with input elements left out: {dropped}; rescued through array-elements: {rescued}");
    assert!(dropped > 0, "no case had an unread tensor-array input element");
    assert!(rescued > 0, "no tensor-array case was rescued through the array-elements form");
}

/// A planted fault.
#[derive(Clone, Copy)]
enum Fault {
    /// Every TOSA ADD computed as SUB (an operator fault, present in
    /// every form that runs the operator).
    AddAsSub,
    /// The lowest bit of every element of every integer or bool output
    /// flipped, only in modules with `NonSemantic.Graph.DebugInfo` (a
    /// fault that one form brings out).
    FlipWithDebugInfo,
    /// Tensor-array interfaces refused as unsupported (as scenario-runner
    /// does), every TOSA ADD of the others computed as SUB.
    AddAsSubWithoutArrays,
}

/// A test-only backend: the in-tree executor with a planted fault.
struct Planted {
    fault: Fault,
}

impl Planted {
    fn add_as_sub(module: &[u32]) -> Option<Vec<u32>> {
        let mut m = spvgraph_ir::Module::decode_words(module).ok()?;
        for inst in &mut m.insts {
            if let spvgraph_ir::Inst::Tosa { op: op @ TosaOp::Add, .. } = inst {
                *op = TosaOp::Sub;
            }
        }
        m.encode_words().ok()
    }

    fn flip(outputs: Vec<TensorData>) -> Vec<TensorData> {
        outputs
            .into_iter()
            .map(|t| {
                if t.elem().is_float() {
                    return t;
                }
                let bits: Vec<u64> = t.to_bits().iter().map(|b| b ^ 1).collect();
                TensorData::from_bits(t.elem(), t.shape(), &bits).unwrap_or(t)
            })
            .collect()
    }

    fn has_debug_info(module: &[u32]) -> bool {
        use spvgraph_oracle::features::{detect_words, Feature};
        let f = detect_words(module, None);
        f.contains(&Feature::DebugInfoInGraph) || f.contains(&Feature::DebugInfoOutsideGraph)
    }
}

/// The stand-in's name.
static PLANTED: Instance = Instance::release("planted");

impl Oracle for Planted {
    fn instance(&self) -> &Instance {
        &PLANTED
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

impl oracle::Executor for Planted {
    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        match self.fault {
            Fault::AddAsSub => {
                let Some(module) = Planted::add_as_sub(request.module) else {
                    return Err(OracleError::Failed { oracle: "planted".into(), reason: "undecodable".into() });
                };
                Executor::default().execute(&ExecRequest { module: &module, ..*request })
            }
            Fault::AddAsSubWithoutArrays => {
                let arrays = spvgraph_ir::Module::decode_words(request.module)
                    .ok()
                    .and_then(|m| spvgraph_oracle::exec::interface(&m, request.entry_point).ok())
                    .is_none_or(|i| i.inputs.iter().chain(&i.outputs).any(|p| p.element.is_some()));
                if arrays {
                    return Ok(ExecOutcome::Refused { kind: Refusal::Unsupported, reason: "tensor arrays".into() });
                }
                Planted { fault: Fault::AddAsSub }.execute(request)
            }
            Fault::FlipWithDebugInfo => match Executor::default().execute(request)? {
                ExecOutcome::Outputs(o) if Planted::has_debug_info(request.module) => {
                    Ok(ExecOutcome::Outputs(Planted::flip(o)))
                }
                other => Ok(other),
            },
        }
    }
}

/// Generated valid cases the in-tree executor runs whose outputs pass
/// `keep`, and its outputs on each.
fn cases_with(n: u64, keep: impl Fn(&OwnedExecRequest, &[TensorData]) -> bool) -> Vec<(OwnedExecRequest, ExecOutcome)> {
    let config = Config::default();
    let mut out = Vec::new();
    for seed in 0..n {
        let Some(req) = request(seed, &config) else { continue };
        let Ok(plain @ ExecOutcome::Outputs(_)) = Executor::default().execute(&req.request()) else { continue };
        if let ExecOutcome::Outputs(o) = &plain {
            if keep(&req, o) {
                out.push((req, plain));
            }
        }
    }
    out
}

#[test]
fn equivalent_forms_do_not_hide_a_planted_fault() {
    let faulty = Planted { fault: Fault::AddAsSub };
    let has_add = |r: &OwnedExecRequest, _: &[TensorData]| {
        spvgraph_ir::Module::decode_words(&r.module)
            .is_ok_and(|m| m.insts.iter().any(|i| matches!(i, spvgraph_ir::Inst::Tosa { op: TosaOp::Add, .. })))
    };
    let mut judged: BTreeMap<Form, u64> = BTreeMap::new();
    let mut hidden = Vec::new();
    let mut found_as_given = 0;
    for (seed, (req, reference)) in cases_with(seeds().max(2000), has_add).into_iter().enumerate() {
        // The fault as the case as given shows it (an integer output that
        // the accuracy rules leave free, such as one taken from a NaN's
        // position, may hide it: such cases say nothing about forms).
        let as_given = Observations {
            request: Some(req.request()),
            reference: Some(reference.clone()),
            executions: vec![ExecAnswer { oracle: &faulty, outcome: faulty.execute(&req.request()), observed: None }],
            ..Observations::default()
        };
        if !judge(&Expectation::Valid, &as_given).iter().any(|d| d.kind == Kind::WrongOutput) {
            continue;
        }
        found_as_given += 1;
        for form in Form::ALL {
            let Ok(r) = apply(form, &req) else { continue };
            // The form alone (the backend gave nothing for the case as
            // given): judged as the case's own outputs would be.
            let answer = FormAnswer {
                oracle: &faulty,
                form: &r,
                outcome: run_form(&faulty, &r),
                reference: run_form(&Executor::default(), &r).ok(),
                rescue: false,
            };
            let observations = Observations {
                request: Some(req.request()),
                reference: Some(reference.clone()),
                forms: vec![answer],
                ..Observations::default()
            };
            let found = judge(&Expectation::Valid, &observations);
            *judged.entry(form).or_default() += 1;
            if !found.iter().any(|d| d.kind == Kind::WrongOutput && d.detail.contains(form.name())) {
                hidden.push(format!("case {seed}, {form}: {found:?}"));
            }
        }
    }
    assert!(found_as_given > 0, "the planted fault is found in none of the cases as given");
    assert!(hidden.is_empty(), "the planted fault is not found in {} forms:\n{}", hidden.len(), hidden.join("\n"));
    let never: Vec<Form> = Form::ALL.into_iter().filter(|f| !judged.contains_key(f)).collect();
    assert!(never.is_empty(), "forms never tried on a case with an ADD: {never:?}");
}

#[test]
fn a_fault_only_one_form_brings_out_is_a_form_difference_and_equal_forms_are_not() {
    let only_debug = Planted { fault: Fault::FlipWithDebugInfo };
    let always = Planted { fault: Fault::AddAsSub };
    let mut differs = 0;
    let integer = |_: &OwnedExecRequest, o: &[TensorData]| o.iter().any(|t| !t.elem().is_float());
    for (req, reference) in cases_with(seeds().min(200), integer) {
        let Ok(r) = apply(Form::DebugInfo, &req) else { continue };
        let Ok(stripped) = apply(Form::Stripped, &req).or_else(|_| apply(Form::Renumbered, &req)) else { continue };
        for (backend, form, expect_difference) in
            [(&only_debug, &r, true), (&always, &r, false), (&only_debug, &stripped, false)]
        {
            let observations = Observations {
                request: Some(req.request()),
                reference: Some(reference.clone()),
                executions: vec![ExecAnswer {
                    oracle: backend,
                    outcome: backend.execute(&req.request()),
                    observed: None,
                }],
                forms: vec![FormAnswer {
                    oracle: backend,
                    form,
                    outcome: run_form(backend, form),
                    reference: run_form(&Executor::default(), form).ok(),
                    rescue: false,
                }],
                ..Observations::default()
            };
            let found = judge(&Expectation::Valid, &observations);
            let pair = format!("{AS_GIVEN} vs {}", form.label());
            let named =
                found.iter().any(|d| d.kind == Kind::FormDiffers && d.discriminator.as_deref() == Some(pair.as_str()));
            assert_eq!(
                named,
                expect_difference,
                "{} in the {} form: {found:?}",
                backend.instance().name(),
                form.label()
            );
            differs += usize::from(named);
        }
    }
    assert!(differs > 0, "no case took the debug-info form");
}

/// A backend that runs a tensor-array case only rescued (through the
/// array-elements form) still has every operator judged on its own: the
/// rescue's observed form runs, a planted ADD fault is found once, as a
/// wrong output of ADD, and each case is judged at every operator.
#[test]
fn a_case_run_only_rescued_is_judged_at_every_operator() {
    use spvgraph_oracle::forms::run::{observed_answer, run_cases, FormCase};
    use spvgraph_oracle::judge::judge_counted;
    let backend = Planted { fault: Fault::AddAsSubWithoutArrays };
    let with_arrays_and_add = |r: &OwnedExecRequest, _: &[TensorData]| {
        let Ok(m) = spvgraph_ir::Module::decode_words(&r.module) else { return false };
        let arrays = spvgraph_oracle::exec::interface(&m, r.entry_point.as_deref())
            .is_ok_and(|i| i.inputs.iter().chain(&i.outputs).any(|p| p.element.is_some()));
        let ops = spvgraph_ir::observe::operators(&m, r.entry_point.as_deref()).unwrap_or_default();
        arrays && ops.iter().any(|o| o.op == TosaOp::Add)
    };
    let (mut rescued, mut found) = (0, 0);
    for (req, reference) in cases_with(seeds(), with_arrays_and_add) {
        let Ok(m) = spvgraph_ir::Module::decode_words(&req.module) else { continue };
        let Ok(form) = spvgraph_ir::observe::observed_form(&m, req.entry_point.as_deref()) else { continue };
        let words = form.module.encode_words().expect("the observed form encodes");
        let observed = OwnedExecRequest { module: words, ..req.clone() };
        let case = FormCase { request: &req, forms: Vec::new(), rescue: true, observed: Some(observed) };
        let runs = run_cases(&[case], &mut |rs| rs.iter().map(|r| backend.execute(r)).collect())
            .pop()
            .expect("one case, one answer");
        assert!(!matches!(runs.plain, Ok(ExecOutcome::Outputs(_))), "the backend refuses tensor arrays");
        let Some(r) = &runs.rescue_observed else { continue };
        if !matches!(r.outcome, Ok(ExecOutcome::Outputs(_))) {
            continue;
        }
        rescued += 1;
        let observations = Observations {
            request: Some(req.request()),
            reference: Some(reference.clone()),
            executions: vec![ExecAnswer {
                oracle: &backend,
                outcome: runs.plain.clone(),
                observed: observed_answer(&runs, Some(&form)),
            }],
            forms: spvgraph_oracle::forms::run::answers(&backend, &runs, &[]),
            ..Observations::default()
        };
        let j = judge_counted(&Expectation::Valid, &observations);
        let wrong: Vec<_> = j.disagreements.iter().filter(|d| d.kind == Kind::WrongOutput).collect();
        let coverage = j.coverage.iter().find(|c| c.oracle == "planted").expect("the backend's coverage");
        assert!(coverage.ran && coverage.judged > 0, "{coverage:?}");
        if let [d] = wrong.as_slice() {
            assert_eq!(d.operators, vec![TosaOp::Add], "{d:?}");
            found += 1;
        } else {
            // An ADD whose SUB gives the same bits (a zero operand) is no evidence.
            assert!(wrong.is_empty(), "one wrong output, not {}: {wrong:?}", wrong.len());
        }
    }
    eprintln!("cases run only rescued: {rescued}; the planted fault found in {found}");
    assert!(rescued > 0, "no tensor-array case with an ADD was rescued");
    assert!(found > 0, "the planted fault was never found through a rescue's observed form");
}

/// The single-round form leaves no RESCALE with INEXACT_ROUND in the graph,
/// and a case with one is rescued through it (for a backend without
/// EXT-INEXACTROUND, such as IREE).
#[test]
fn single_round_takes_inexact_round_away_and_rescues_it() {
    let config = Config::default();
    let mut applied = 0;
    for seed in 0..seeds() {
        let Some(req) = request(seed, &config) else { continue };
        let Ok(r) = apply(Form::SingleRound, &req) else { continue };
        let Some(form) = r.single() else { panic!("seed {seed}: the single-round form has one stage") };
        let module = spvgraph_ir::Module::decode_words(&form.module).expect("a form decodes");
        let a = spvgraph_ir::analysis::Analysis::new(&module);
        let ops = spvgraph_ir::observe::operators(&module, form.entry_point.as_deref()).expect("operators");
        for o in ops.iter().filter(|o| o.op == TosaOp::Rescale) {
            let mode = module.insts.iter().find_map(|i| match i {
                spvgraph_ir::Inst::Tosa { result, args, .. } if *result == o.node => args.get(1).copied(),
                _ => None,
            });
            let inexact = mode.and_then(|m| a.const_uint(m)) == Some(2);
            assert!(!inexact, "seed {seed}: RESCALE {} keeps INEXACT_ROUND", o.node);
        }
        assert!(
            rescue(&req).is_some_and(|r| r.forms.contains(&Form::SingleRound)),
            "seed {seed}: the rescue keeps INEXACT_ROUND"
        );
        applied += 1;
    }
    assert!(applied > 0, "no generated case has a RESCALE with INEXACT_ROUND");
}

/// The AVG_POOL2D and MAX_POOL2D of entry point `entry`'s graph whose
/// result is fp8: how many of each.
fn fp8_pools(words: &[u32], entry: Option<&str>) -> BTreeMap<TosaOp, usize> {
    use spvgraph_ir::elem::ElemType;
    use spvgraph_ir::Inst;
    let module = spvgraph_ir::Module::decode_words(words).expect("a form decodes");
    let a = spvgraph_ir::analysis::Analysis::new(&module);
    let graph = module.insts.iter().find_map(|i| match i {
        Inst::GraphEntryPoint { graph, name, .. } if entry.is_none_or(|e| e == name) => Some(*graph),
        _ => None,
    });
    let mut inside = false;
    let mut out = BTreeMap::new();
    for inst in &module.insts {
        match inst {
            Inst::Graph { result, .. } => inside = Some(*result) == graph,
            Inst::GraphEnd => inside = false,
            Inst::Tosa { op: op @ (TosaOp::AvgPool2d | TosaOp::MaxPool2d), ty, .. } if inside => {
                let elem = a.tensor_type(*ty).and_then(|t| t.elem);
                if matches!(elem, Some(ElemType::Fp8E4M3 | ElemType::Fp8E5M2)) {
                    *out.entry(*op).or_default() += 1;
                }
            }
            _ => {}
        }
    }
    out
}

/// fp8 pools run on fp32 values: the fp8-through-fp32 form leaves no
/// MAX_POOL2D on fp8 in the graph, the fp8-avg-pool-in-fp32 form no
/// AVG_POOL2D on fp8, and a case with one is rescued through them (for IREE,
/// which cannot pool fp8 values on llvm-cpu). That the forms are valid and
/// compute the same bits: `every_form_is_valid_and_computes_the_same_bits`.
#[test]
fn fp8_pools_run_on_fp32_values_and_are_rescued() {
    let config = Config::default();
    let mut rewritten: BTreeMap<TosaOp, usize> = BTreeMap::new();
    for seed in 0..seeds() {
        let Some(req) = request(seed, &config) else { continue };
        let before = fp8_pools(&req.module, req.entry_point.as_deref());
        for (op, form) in [(TosaOp::MaxPool2d, Form::Fp8ThroughFp32), (TosaOp::AvgPool2d, Form::Fp8AvgPoolInFp32)] {
            if before.get(&op).is_none_or(|&n| n == 0) {
                continue;
            }
            let r = apply(form, &req).unwrap_or_else(|e| panic!("seed {seed}: {form} does not apply: {e}"));
            let single = r.single().unwrap_or_else(|| panic!("seed {seed}: {form} has one stage"));
            let after = fp8_pools(&single.module, single.entry_point.as_deref());
            assert_eq!(after.get(&op), None, "seed {seed}: {form} leaves an fp8 {op:?}");
            let rescued = rescue(&req).unwrap_or_else(|| panic!("seed {seed}: no rescue"));
            assert!(
                rescued.forms.contains(&form),
                "seed {seed}: the rescue ({}) leaves an fp8 {op:?}",
                rescued.label()
            );
            *rewritten.entry(op).or_default() += 1;
        }
    }
    eprintln!("cases with fp8 pools run on fp32: {rewritten:?}");
    assert!(rewritten.get(&TosaOp::MaxPool2d).is_some_and(|&n| n > 0), "no case has an fp8 MAX_POOL2D");
    assert!(rewritten.get(&TosaOp::AvgPool2d).is_some_and(|&n| n > 0), "no case has an fp8 AVG_POOL2D");
}

/// Graphs of fp8 pools only (both fp8 types, both NaN modes, padding, the
/// generator's special values): both fp8 forms are valid for spirv-val and
/// give the in-tree executor's bits, on many more pools than the default
/// generator makes.
#[test]
fn fp8_pool_forms_compute_the_same_bits() {
    use spvgraph_ir::elem::Profile;
    let spirv_val = spvgraph_testkit::oracle(SpirvVal::discover());
    let config = Config {
        allow_ops: vec![TosaOp::AvgPool2d, TosaOp::MaxPool2d],
        profiles: vec![Profile::ExtFp8E4M3, Profile::ExtFp8E5M2],
        ..Config::default()
    };
    let executor = Executor::default();
    let (mut applied, mut failures) = (BTreeMap::<Form, u64>::new(), Vec::new());
    for seed in 0..seeds() {
        let Some(req) = request(seed, &config) else { continue };
        let Ok(plain @ ExecOutcome::Outputs(_)) = executor.execute(&req.request()) else { continue };
        for form in [Form::Fp8ThroughFp32, Form::Fp8AvgPoolInFp32] {
            if check_form(form, &req, &plain, spirv_val.as_ref(), &mut failures, seed) {
                *applied.entry(form).or_default() += 1;
            }
        }
    }
    eprintln!("fp8-pool cases per form: {applied:?}");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(applied.values().all(|&n| n >= 100) && applied.len() == 2, "too few fp8 pools: {applied:?}");
}

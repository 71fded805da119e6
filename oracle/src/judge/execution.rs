//! Judging backends' runs of a graph: abnormal ends, refusals, and outputs
//! against the in-tree executor's, with the referee's precise run to name
//! the culprit when they differ.

use super::{Disagreement, ExecAnswer, Expectation, Kind, Observations, Severity};
use crate::compliance::flush::{flush_request, flushed_in_tree_outputs};
use crate::compliance::{
    compare, compare_run_each, compare_with_mode, has_computed_weights, inexact_upstream, output_contexts, Agreement,
    Exemption, Judged, Mode, PreciseOutcome, ReferenceTensor, Unjudged,
};
use crate::oracle::{Abnormal, ExecOutcome, ExecRequest, Oracle, OracleError, OwnedExecRequest, Refusal};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;

/// What the judgement of one case computes at most once, and only when a
/// disagreement needs it: the referee's precise run, the other reference
/// TOSA allows (subnormal inputs flushed, [`crate::compliance::flush`]), and
/// the referee's own normal-mode result on the operators whose rule it can
/// miss ([`has_computed_weights`]).
pub(super) struct Vote<'a> {
    referee: Option<&'a dyn Oracle>,
    outcome: Option<Result<PreciseOutcome, OracleError>>,
    /// The request with its subnormals flushed, and the referee's precise run of it.
    flushed: Option<Option<(OwnedExecRequest, PreciseOutcome)>>,
    /// The in-tree executor's outputs with every subnormal operand flushed.
    flushed_in_tree: Option<Option<Vec<TensorData>>>,
    /// The referee's normal-mode answer (taken from the case when it ran as a backend).
    normal: Option<Option<ExecOutcome>>,
    /// Per output, the elements the referee's own normal result fails.
    reference_fails: Option<Vec<Unjudged>>,
    /// `checker-disagrees-with-reference` disagreements, reported once per case.
    notes: Vec<Disagreement>,
}

impl<'a> Vote<'a> {
    pub(super) fn new(referee: Option<&'a dyn Oracle>) -> Vote<'a> {
        Vote {
            referee,
            outcome: None,
            flushed: None,
            flushed_in_tree: None,
            normal: None,
            reference_fails: None,
            notes: Vec::new(),
        }
    }

    /// The referee's name, when there is one.
    pub(super) fn name(&self) -> Option<&str> {
        self.referee.map(|r| r.name())
    }

    /// Uses `outcome` as the referee's normal-mode answer instead of running it again.
    pub(super) fn seed_normal(&mut self, outcome: Option<ExecOutcome>) {
        if outcome.is_some() {
            self.normal = Some(outcome);
        }
    }

    /// The `checker-disagrees-with-reference` disagreements found so far (taken once).
    pub(super) fn take_notes(&mut self) -> Vec<Disagreement> {
        std::mem::take(&mut self.notes)
    }

    fn get(&mut self, request: &ExecRequest<'_>) -> Option<&Result<PreciseOutcome, OracleError>> {
        let referee = self.referee?;
        Some(self.outcome.get_or_insert_with(|| referee.execute_precise(request)))
    }

    /// The in-tree executor's outputs computed with subnormal operands
    /// flushed, when flushing changes what some operator reads.
    pub(super) fn flushed_in_tree(&mut self, request: &ExecRequest<'_>) -> Option<&Vec<TensorData>> {
        self.flushed_in_tree.get_or_insert_with(|| flushed_in_tree_outputs(request)).as_ref()
    }

    /// The flushed request and the referee's precise run of it, when the
    /// request holds subnormals and the referee answers.
    fn flushed(&mut self, request: &ExecRequest<'_>) -> Option<&(OwnedExecRequest, PreciseOutcome)> {
        if self.flushed.is_none() {
            let run = self.referee.and_then(|referee| {
                let owned = flush_request(request)?;
                let precise = referee.execute_precise(&owned.request()).ok()?;
                Some((owned, precise))
            });
            self.flushed = Some(run);
        }
        self.flushed.as_ref().and_then(Option::as_ref)
    }

    /// Per output, the elements of operators with computed weights that the
    /// referee's own normal-mode result fails against its precise run; each
    /// output concerned is reported once as `checker-disagrees-with-reference`.
    fn reference_fails(&mut self, request: &ExecRequest<'_>, precise: &PreciseOutcome) -> Vec<Unjudged> {
        if let Some(known) = &self.reference_fails {
            return known.clone();
        }
        let Some(referee) = self.referee else { return Vec::new() };
        let normal = self.normal.get_or_insert_with(|| referee.execute(request).ok()).clone();
        let name = referee.name().to_string();
        let mut found = Vec::new();
        if let Some(normal @ ExecOutcome::Outputs(_)) = normal {
            if let Ok(Judged::Outputs(verdicts)) = compare_run_each(request, precise, &name, Ok(normal.clone()), &[]) {
                found = vec![Unjudged::none(); verdicts.len()];
                for (j, v) in verdicts.iter().enumerate() {
                    let (Some(op), Ok(result)) = (v.op, &v.verdict) else { continue };
                    if result.pass || !has_computed_weights(op) {
                        continue;
                    }
                    let mut u = Unjudged::none();
                    for &i in &result.stats.failing {
                        u.element(i, Exemption::ReferenceModelFails);
                    }
                    // Once its own failing elements are out, the model's
                    // result may still fail the tensor statistics.
                    let mut per_output = vec![Unjudged::none(); verdicts.len()];
                    per_output[j] = u.clone();
                    let again = compare_run_each(request, precise, &name, Ok(normal.clone()), &per_output);
                    if let Ok(Judged::Outputs(w)) = again {
                        if w.get(j).is_some_and(|w| !w.passed()) {
                            u.statistics(Exemption::ReferenceModelFails);
                        }
                    }
                    self.notes.push(reference_fails_note(&name, j, op, result, u.len()));
                    found[j] = u;
                }
            }
        }
        self.reference_fails = Some(found.clone());
        found
    }

    /// Each answer judged against the referee's precise run, or `None`
    /// when there is no referee or it could not run. An output is compliant
    /// if it meets the rules against the precise run of the request as given
    /// or of the request with its subnormals flushed; elements the referee's
    /// own normal-mode result fails on FFTs are not judged.
    pub(super) fn verdicts(
        &mut self,
        request: &ExecRequest<'_>,
        answers: &[(&str, &ExecOutcome)],
    ) -> Option<Vec<Result<Agreement, OracleError>>> {
        let precise = match self.get(request)? {
            Ok(p) => p.clone(),
            Err(_) => return None,
        };
        let judge_all = |unjudged: &[Unjudged]| -> Vec<Result<Judged, OracleError>> {
            answers
                .iter()
                .map(|(name, o)| compare_run_each(request, &precise, name, Ok((*o).clone()), unjudged))
                .collect()
        };
        let mut judged = judge_all(&[]);
        let mut unjudged = Vec::new();
        let fails_with_computed_weights = |j: &Result<Judged, OracleError>| match j {
            Ok(Judged::Outputs(v)) => v.iter().any(|o| o.failed() && o.op.is_some_and(has_computed_weights)),
            _ => false,
        };
        if judged.iter().any(fails_with_computed_weights) {
            unjudged = self.reference_fails(request, &precise);
            if unjudged.iter().any(|u| !u.is_empty()) {
                judged = judge_all(&unjudged);
            }
        }
        if judged.iter().any(|j| matches!(j, Ok(Judged::Outputs(v)) if v.iter().any(|o| o.failed()))) {
            if let Some((owned, flushed_precise)) = self.flushed(request) {
                let flushed_request = owned.request();
                for (k, (name, o)) in answers.iter().enumerate() {
                    let alternative =
                        compare_run_each(&flushed_request, flushed_precise, name, Ok((*o).clone()), &unjudged);
                    if let (Some(Ok(Judged::Outputs(given))), Ok(Judged::Outputs(flushed))) =
                        (judged.get_mut(k), alternative)
                    {
                        either(given, flushed);
                    }
                }
            }
        }
        Some(judged.into_iter().map(|j| j.map(Judged::agreement)).collect())
    }
}

/// Keeps, for each output that fails against the reference as given, the
/// verdict against the flushed reference when that one passes: an output is
/// compliant with one reference or the other, never a mix within it.
fn either(given: &mut [crate::compliance::OutputVerdict], flushed: Vec<crate::compliance::OutputVerdict>) {
    if given.len() != flushed.len() {
        return;
    }
    for (g, f) in given.iter_mut().zip(flushed) {
        if !g.passed() && f.passed() {
            *g = f;
        }
    }
}

/// The `checker-disagrees-with-reference` note for output `j` of `op`, whose
/// rule the referee's own normal-mode result fails on `elements` elements.
fn reference_fails_note(
    referee: &str,
    j: usize,
    op: TosaOp,
    result: &crate::compliance::ComplianceResult,
    elements: usize,
) -> Disagreement {
    let detail = format!(
        "output {j} ({op}): the rule fails the TOSA reference model's own normal-mode result ({referee}) on {elements} \
         element(s), so no backend is judged there: {result}"
    );
    let mut d = Disagreement::new(Kind::CheckerDisagreesWithReference, referee, detail);
    // Charged to no backend: the rule (or the fp64 reference it measures
    // against) asks for what the reference implementation does not deliver.
    d.oracles = Vec::new();
    d.operators = vec![op];
    d
}

/// How two sets of outputs compare.
#[derive(Clone, Debug, PartialEq)]
pub enum OutputComparison {
    /// Every output is compliant with the other's.
    Agree,
    /// An output differs beyond what its accuracy rule allows.
    Differ {
        /// The output (OutputIndex order, arrays flattened).
        output: usize,
        /// What differs.
        detail: String,
    },
    /// The rule needs facts a typed reference cannot give (bounds tensors).
    Incomparable(String),
}

/// Compares `candidate` outputs with `reference` outputs of the same request
/// under the TOSA compliance rules, the reference taken as exact: bit-exact
/// for integers; for floating point, each output's accuracy rule (modes that
/// need a bounds tensor are [`OutputComparison::Incomparable`]).
pub fn compare_outputs(
    request: &ExecRequest<'_>,
    reference: &[TensorData],
    candidate: &[TensorData],
) -> OutputComparison {
    first_difference(compare_each(request, reference, candidate))
}

/// [`compare_outputs`] where each output may match either of two references
/// (`(reference, candidate)` pairs: the candidate's unjudged outputs are
/// taken from its own reference, see [`unjudged_taken_from`]).
fn compare_outputs_either(
    request: &ExecRequest<'_>,
    first: (&[TensorData], &[TensorData]),
    second: (&[TensorData], &[TensorData]),
) -> OutputComparison {
    let a = compare_each(request, first.0, first.1);
    let b = compare_each(request, second.0, second.1);
    match (a, b) {
        (Ok(a), Ok(b)) if a.len() == b.len() => first_difference(Ok(a
            .into_iter()
            .zip(b)
            .map(|(x, y)| if y == OutputComparison::Agree { y } else { x })
            .collect())),
        (a, _) => first_difference(a),
    }
}

fn first_difference(each: Result<Vec<OutputComparison>, OutputComparison>) -> OutputComparison {
    match each {
        Err(whole) => whole,
        Ok(each) => each.into_iter().find(|c| *c != OutputComparison::Agree).unwrap_or(OutputComparison::Agree),
    }
}

/// One comparison per output, or the one difference that concerns them all
/// (their number).
fn compare_each(
    request: &ExecRequest<'_>,
    reference: &[TensorData],
    candidate: &[TensorData],
) -> Result<Vec<OutputComparison>, OutputComparison> {
    if reference.len() != candidate.len() {
        return Err(OutputComparison::Differ {
            output: reference.len().min(candidate.len()),
            detail: format!("{} outputs where {} were expected", candidate.len(), reference.len()),
        });
    }
    let contexts = Module::decode_words(request.module)
        .map_err(|e| e.to_string())
        .and_then(|m| output_contexts(&m, request.entry_point, request.inputs, request.graph_constants));
    Ok(reference
        .iter()
        .zip(candidate)
        .enumerate()
        .map(|(j, (r, c))| {
            if r.shape() != c.shape() || r.elem() != c.elem() {
                let detail =
                    format!("output {j}: {} {:?} where {} {:?} was expected", c.elem(), c.shape(), r.elem(), r.shape());
                return OutputComparison::Differ { output: j, detail };
            }
            let typed = ReferenceTensor::Typed(r.clone());
            let verdict = match contexts.as_ref().ok().and_then(|cs| cs.get(j)).and_then(Option::as_ref) {
                Some(ctx) if r.elem().is_float() => compare(ctx, &typed, c, None),
                _ => compare_with_mode(&Mode::Exact, &typed, c, None),
            };
            match verdict {
                Ok(v) if v.pass => OutputComparison::Agree,
                Ok(v) => OutputComparison::Differ { output: j, detail: format!("output {j}: {v}") },
                Err(e) => OutputComparison::Incomparable(format!("output {j}: {e}")),
            }
        })
        .collect())
}

/// The disagreements of every backend's run.
pub(super) fn judge(
    expectation: &Expectation,
    observations: &Observations<'_>,
    vote: &mut Vote<'_>,
) -> Vec<Disagreement> {
    let Some(request) = &observations.request else { return Vec::new() };
    let mut out = Vec::new();
    // The in-tree executor refusing a valid case is its own bug, unless a
    // pipeline-creation rule (unshaped interfaces: nothing to run) explains it.
    if let (Expectation::Valid, Some(ExecOutcome::Refused { kind: Refusal::Invalid | Refusal::Rejected, reason })) =
        (expectation, &observations.reference)
    {
        if pipeline_rules(request).is_empty() {
            out.push(
                Disagreement::new(
                    Kind::RefusedValid,
                    crate::registry::IN_TREE,
                    format!("the in-tree executor refuses a valid module: {reason}"),
                )
                .with_operators(observations.operators.clone())
                .with_message(Some(reason.clone())),
            );
        }
    }
    // The referee's normal-mode answer, when it ran as a backend too.
    if let Some(referee) = vote.name().map(str::to_string) {
        let answer = observations.executions.iter().find(|a| a.oracle.name() == referee);
        vote.seed_normal(answer.and_then(|a| a.outcome.as_ref().ok()).cloned());
    }
    for answer in &observations.executions {
        out.extend(judge_one(expectation, observations, request, answer, vote));
    }
    out
}

fn judge_one(
    expectation: &Expectation,
    observations: &Observations<'_>,
    request: &ExecRequest<'_>,
    answer: &ExecAnswer<'_>,
    vote: &mut Vote<'_>,
) -> Option<Disagreement> {
    let name = answer.oracle.name();
    let invalid = expectation.rule();
    let is_invalid = expectation.is_invalid();
    let outcome = match &answer.outcome {
        Ok(o) => o,
        Err(OracleError::Unavailable { .. } | OracleError::Unsupported { .. }) => return None,
        // An invalid module often has no TOSA form to hand a translating
        // backend: that it cannot answer is no finding.
        Err(_) if is_invalid && !answer.oracle.reads_spirv() => return None,
        Err(e) => {
            return Some(Disagreement::new(Kind::OracleError, name, e.to_string()).with_message(Some(e.to_string())))
        }
    };
    let graph_ops = observations.operators.clone();
    match outcome {
        ExecOutcome::Abnormal { how, detail } => {
            let kind = match how {
                Abnormal::Signal(_) => Kind::Crash,
                Abnormal::Timeout => Kind::Timeout,
                Abnormal::OutOfMemory => Kind::OutOfMemory,
            };
            let on = if is_invalid { "an invalid module" } else { "a valid module" };
            let mut d = Disagreement::new(kind, name, format!("{name} {how} on {on}: {detail}"))
                .with_rule(invalid)
                .with_operators(graph_ops)
                .with_discriminator(Some(how.to_string()))
                .with_message(last_line(detail));
            // Vulkan leaves invalid SPIR-V undefined: a crash on it is outside
            // the consumer's contract.
            if is_invalid {
                d.severity = invalid_module_severity(observations);
            }
            Some(d)
        }
        ExecOutcome::Refused { kind: Refusal::Unsupported | Refusal::OverBudget | Refusal::Unpredictable, .. } => None,
        ExecOutcome::Refused { reason, .. } => {
            if is_invalid {
                return None;
            }
            let pipeline = pipeline_rules(request);
            if !pipeline.is_empty() {
                // A pipeline-creation rule explains the refusal.
                return None;
            }
            Some(
                Disagreement::new(Kind::RefusedValid, name, format!("{name} refuses a valid module: {reason}"))
                    .with_operators(graph_ops)
                    .with_message(last_line(reason)),
            )
        }
        ExecOutcome::Outputs(outputs) => {
            if is_invalid {
                // A translating backend runs our TOSA translation of the
                // module, not the module: what it accepts says nothing (the
                // translation drops dead instructions, where near-valid
                // mutators put most breaks, and SPIR-V encoding rules).
                if !answer.oracle.reads_spirv() {
                    return None;
                }
                // Once per rule and backend: no operator or message in the signature.
                let breaking =
                    invalid.map_or_else(|| "an invalid module".to_string(), |r| format!("a module breaking {r}"));
                let mut d = Disagreement::new(
                    Kind::AcceptsInvalid,
                    name,
                    format!("{name} runs {breaking} and produces {} output(s)", outputs.len()),
                )
                .with_rule(invalid);
                d.severity = invalid_module_severity(observations);
                return Some(d);
            }
            judge_outputs(name, request, observations.reference.as_ref(), outputs, vote, &graph_ops)
        }
    }
}

/// A valid case's outputs from `name` against the in-tree executor's, with
/// the referee's vote when they differ or cannot be compared directly.
fn judge_outputs(
    name: &str,
    request: &ExecRequest<'_>,
    reference: Option<&ExecOutcome>,
    outputs: &[TensorData],
    vote: &mut Vote<'_>,
    graph_ops: &[spvgraph_ir::tosa::TosaOp],
) -> Option<Disagreement> {
    let in_tree = match reference {
        Some(ExecOutcome::Outputs(r)) => r,
        // No reference outputs: unpredictable (any result goes), over
        // budget, or refused (judged above).
        _ => return None,
    };
    let raw = outputs;
    let (outputs, inexact) = unjudged_taken_from(request, in_tree, raw);
    let is_inexact = |j: usize| inexact.get(j).copied().unwrap_or(false);
    let mut direct = compare_outputs(request, in_tree, &outputs);
    if direct != OutputComparison::Agree {
        // The in-tree executor computing as an implementation that flushes
        // subnormal inputs does: either result is compliant.
        if let Some(flushed) = vote.flushed_in_tree(request) {
            let (flushed_candidate, _) = unjudged_taken_from(request, flushed, raw);
            direct = compare_outputs_either(request, (in_tree, &outputs), (flushed, &flushed_candidate));
        }
    }
    if direct == OutputComparison::Agree {
        return None;
    }
    let ours = ExecOutcome::Outputs(in_tree.clone());
    let theirs = ExecOutcome::Outputs(outputs);
    let in_tree_name = crate::registry::IN_TREE;
    let verdicts = vote.verdicts(request, &[(name, &theirs), (in_tree_name, &ours)]);
    let referee = vote.name().unwrap_or("no referee").to_string();
    let contexts = Module::decode_words(request.module)
        .ok()
        .and_then(|m| output_contexts(&m, request.entry_point, request.inputs, request.graph_constants).ok());
    let op_of = |j: usize| contexts.as_ref().and_then(|c| c.get(j)).and_then(Option::as_ref).map(|c| c.op);
    let direct_text = match &direct {
        OutputComparison::Differ { detail, .. } => detail.clone(),
        OutputComparison::Incomparable(why) => format!("not comparable directly ({why})"),
        OutputComparison::Agree => String::new(),
    };
    let wrong = |oracles: Vec<String>, output: Option<usize>, detail: String| {
        let mut d = Disagreement::new(Kind::WrongOutput, name, detail);
        d.oracles = oracles;
        d.operators = match output.and_then(op_of) {
            Some(op) => vec![op],
            None => graph_ops.to_vec(),
        };
        d.discriminator = output.map(|j| format!("output {j}"));
        d
    };
    match verdicts {
        None => match direct {
            // Without a referee, an integer or exact mismatch still shows
            // that one of the two is wrong.
            OutputComparison::Differ { output, detail } => Some(wrong(
                vec![name.to_string(), in_tree_name.to_string()],
                Some(output),
                format!("{name} and the in-tree executor differ ({detail}); no referee could run ({referee})"),
            )),
            _ => None,
        },
        Some(v) => {
            let theirs_v = &v[0];
            let ours_v = &v[1];
            // A referee's complaint about an output computed from
            // approximations is no evidence either (see above).
            let bad = |a: &Result<Agreement, OracleError>| matches!(a, Ok(Agreement::Mismatch { output, .. }) if !output.is_some_and(is_inexact));
            let output_of = |a: &Result<Agreement, OracleError>| match a {
                Ok(Agreement::Mismatch { output, .. }) => *output,
                _ => None,
            };
            let text = |a: &Result<Agreement, OracleError>| match a {
                Ok(Agreement::Mismatch { detail, .. }) => format!("not compliant: {detail}"),
                Ok(Agreement::Compliant(_)) => "compliant".to_string(),
                Ok(other) => format!("{other:?}"),
                Err(e) => format!("error: {e}"),
            };
            let all_three = format!(
                "{name}: {}; in-tree: {}; direct comparison: {direct_text} (referee: {referee})",
                text(theirs_v),
                text(ours_v)
            );
            match (bad(theirs_v), bad(ours_v)) {
                (true, false) => Some(wrong(vec![name.to_string()], output_of(theirs_v), all_three)),
                (false, true) => Some(wrong(vec![in_tree_name.to_string()], output_of(ours_v), all_three)),
                // The precise run does not round intermediate results, so
                // downstream of any floating-point operator it can condemn
                // both: then only a direct difference is evidence.
                (true, true) => match direct {
                    OutputComparison::Differ { .. } => {
                        Some(wrong(vec![name.to_string(), in_tree_name.to_string()], output_of(theirs_v), all_three))
                    }
                    _ => None,
                },
                (false, false) => None,
            }
        }
    }
}

/// How much a consumer's answer on an invalid module matters: a note (outside
/// the contract of a Vulkan consumer), or a low-severity finding when the
/// caller asked for strict consumers.
fn invalid_module_severity(observations: &Observations<'_>) -> Severity {
    if observations.strict_consumers {
        Severity::Low
    } else {
        Severity::Note
    }
}

/// `candidate` with each output computed from approximations replaced by
/// `reference`'s, and which outputs those are.
///
/// The accuracy rules bound the last operator's error given exact operands:
/// an output computed from approximations may differ between two compliant
/// implementations (or a producer's constant folding) by more, so such a
/// difference proves nothing. Only outputs of the same type and shape are
/// replaced: a wrong shape is still a finding.
pub(super) fn unjudged_taken_from(
    request: &ExecRequest<'_>,
    reference: &[TensorData],
    candidate: &[TensorData],
) -> (Vec<TensorData>, Vec<bool>) {
    let inexact = Module::decode_words(request.module)
        .ok()
        .and_then(|m| inexact_upstream(&m, request.entry_point).ok())
        .unwrap_or_default();
    let outputs = candidate
        .iter()
        .enumerate()
        .map(|(j, o)| match reference.get(j) {
            Some(r) if inexact.get(j) == Some(&true) && r.shape() == o.shape() && r.elem() == o.elem() => r.clone(),
            _ => o.clone(),
        })
        .collect();
    (outputs, inexact)
}

/// The pipeline-creation rules (Vulkan `VUID-RuntimeSpirv-*`) the request's
/// module breaks for its entry point: a backend that creates a pipeline may
/// refuse such a module although it is valid.
pub fn pipeline_rules(request: &ExecRequest<'_>) -> Vec<spvgraph_ir::rules::RuleId> {
    let Ok(module) = Module::decode_words(request.module) else { return Vec::new() };
    let entry = match request.entry_point {
        Some(e) => e.to_string(),
        None => match module.insts.iter().find_map(|i| match i {
            spvgraph_ir::Inst::GraphEntryPoint { name, .. } => Some(name.clone()),
            _ => None,
        }) {
            Some(e) => e,
            None => return Vec::new(),
        },
    };
    let validator = crate::validate::Validator::new(crate::oracle::ValidateOptions::default());
    validator.pipeline_rules(&module, &entry).map(|fs| fs.into_iter().map(|f| f.rule).collect()).unwrap_or_default()
}

/// The last non-empty line of a message: what stays the same between runs.
fn last_line(text: &str) -> Option<String> {
    text.lines().map(str::trim).rev().find(|l| !l.is_empty()).map(str::to_string)
}

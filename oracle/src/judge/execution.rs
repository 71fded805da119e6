//! Judging backends' runs of a graph: abnormal ends, refusals, and outputs
//! against the in-tree executor's, with the referee's precise run to name
//! the culprit when they differ.

use super::local::{candidate_of, Coverage, LocalJudge, OperatorOutcome, OperatorVerdict, UnjudgedReason};
use super::{Disagreement, ExecAnswer, Expectation, Kind, Observations, Severity};
use crate::compliance::flush::{flush_request, flushed_in_tree_outputs};
use crate::compliance::{
    compare, compare_run_each, compare_with_mode, has_computed_weights, inexact_upstream, output_contexts, Agreement,
    Exemption, Judged, Mode, OpContext, PreciseOutcome, ReferenceTensor, Unjudged,
};
use crate::oracle::{Abnormal, ExecOutcome, ExecRequest, Oracle, OracleError, OwnedExecRequest, Refusal};
use spvgraph_ir::observe::{LocalOutput, ObservedForm};
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

    /// The referee, when there is one.
    pub(super) fn referee(&self) -> Option<&'a dyn Oracle> {
        self.referee
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
        Some(self.outcome.get_or_insert_with(|| referee.referee().and_then(|r| r.execute_precise(request))))
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
                let precise = referee.referee().and_then(|r| r.execute_precise(&owned.request())).ok()?;
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
        let normal =
            self.normal.get_or_insert_with(|| referee.executor().and_then(|e| e.execute(request)).ok()).clone();
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
        let judged = self.verdicts_each(request, answers)?;
        Some(judged.into_iter().map(|j| j.map(Judged::agreement)).collect())
    }

    /// [`Vote::verdicts`], output by output.
    pub(super) fn verdicts_each(
        &mut self,
        request: &ExecRequest<'_>,
        answers: &[(&str, &ExecOutcome)],
    ) -> Option<Vec<Result<Judged, OracleError>>> {
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
        Some(judged)
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
            let ctx = contexts.as_ref().ok().and_then(|cs| cs.get(j)).and_then(Option::as_ref);
            match compare_direct(ctx, r, c) {
                Direct::Agree => OutputComparison::Agree,
                Direct::Differ(detail) | Direct::Mismatch(detail) => {
                    OutputComparison::Differ { output: j, detail: format!("output {j}: {detail}") }
                }
                Direct::Incomparable(why) => OutputComparison::Incomparable(format!("output {j}: {why}")),
            }
        })
        .collect())
}

/// How a candidate tensor compares with a reference tensor of the same
/// request taken as exact.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Direct {
    /// Compliant (or bit-identical).
    Agree,
    /// Outside the rule.
    Differ(String),
    /// The rule needs what a typed reference cannot give (a bounds tensor).
    Incomparable(String),
    /// Another element type or shape: no rule can accept it.
    Mismatch(String),
}

/// Compares `candidate` with `reference` under the rule of `ctx` (the
/// operator that produced them; none: a value passed through, exact).
pub(super) fn compare_direct(ctx: Option<&OpContext>, reference: &TensorData, candidate: &TensorData) -> Direct {
    if reference.shape() != candidate.shape() || reference.elem() != candidate.elem() {
        return Direct::Mismatch(format!(
            "{} {:?} where {} {:?} was expected",
            candidate.elem(),
            candidate.shape(),
            reference.elem(),
            reference.shape()
        ));
    }
    if reference.to_bits() == candidate.to_bits() {
        return Direct::Agree;
    }
    let typed = ReferenceTensor::Typed(reference.clone());
    let verdict = match ctx {
        Some(ctx) if reference.elem().is_float() => compare(ctx, &typed, candidate, None),
        _ => compare_with_mode(&Mode::Exact, &typed, candidate, None),
    };
    match verdict {
        Ok(v) if v.pass => Direct::Agree,
        Ok(v) => Direct::Differ(v.to_string()),
        Err(e) => Direct::Incomparable(e.to_string()),
    }
}

/// The disagreements of every backend's run, and what was judged of each
/// backend's run of a valid case.
pub(super) fn judge(
    expectation: &Expectation,
    observations: &Observations<'_>,
    vote: &mut Vote<'_>,
) -> (Vec<Disagreement>, Vec<Coverage>) {
    let Some(request) = &observations.request else { return (Vec::new(), Vec::new()) };
    let mut out = Vec::new();
    let mut coverage = Vec::new();
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
        let (ds, c) = judge_one(expectation, observations, request, answer, vote);
        out.extend(ds);
        coverage.extend(c);
    }
    for answer in &observations.against_referee {
        out.extend(judge_against_referee(expectation, observations, answer, vote));
    }
    (out, coverage)
}

/// A backend's run judged against the referee's precise run alone (see
/// [`Observations::against_referee`]): its outcome by itself, then its
/// outputs with the accuracy rules as the vote judges them (subnormals
/// flushed or not, elements the referee's own result fails left out).
fn judge_against_referee(
    expectation: &Expectation,
    observations: &Observations<'_>,
    answer: &ExecAnswer<'_>,
    vote: &mut Vote<'_>,
) -> Vec<Disagreement> {
    let Some(request) = &observations.request else { return Vec::new() };
    let name = answer.oracle.name();
    let mut out: Vec<Disagreement> =
        outcome_disagreement(expectation, observations, request, answer.oracle, &answer.outcome, None)
            .into_iter()
            .collect();
    let outputs = match (&answer.outcome, expectation.is_invalid()) {
        (Ok(ExecOutcome::Outputs(o)), false) => o,
        _ => return out,
    };
    // A referee that ended abnormally or refused settles nothing about the backend.
    if !matches!(vote.get(request), Some(Ok(PreciseOutcome::Outputs(_)))) {
        return out;
    }
    let theirs = ExecOutcome::Outputs(outputs.clone());
    let referee = vote.name().unwrap_or("no referee").to_string();
    let verdicts = vote.verdicts(request, &[(name, &theirs)]).unwrap_or_default();
    if let Some(Ok(Agreement::Mismatch { output, detail })) = verdicts.first() {
        let op = Module::decode_words(request.module)
            .ok()
            .and_then(|m| output_contexts(&m, request.entry_point, request.inputs, request.graph_constants).ok())
            .and_then(|c| output.and_then(|j| c.get(j).cloned().flatten()))
            .map(|c| c.op);
        let mut d =
            Disagreement::new(Kind::WrongOutput, name, format!("{name}: not compliant: {detail} (referee: {referee})"));
        d.operators = match op {
            Some(op) => vec![op],
            None => observations.operators.clone(),
        };
        d.discriminator = output.map(|j| format!("output {j}"));
        out.push(d);
    }
    out
}

/// The disagreement a backend's outcome is by itself (an abnormal end, a
/// refusal, an error, outputs of an invalid module), before any output is
/// compared; `on` says which form it ran (`None`: the case's own module).
fn outcome_disagreement(
    expectation: &Expectation,
    observations: &Observations<'_>,
    request: &ExecRequest<'_>,
    oracle: &dyn Oracle,
    outcome: &Result<ExecOutcome, OracleError>,
    on: Option<&str>,
) -> Option<Disagreement> {
    let name = oracle.name();
    let invalid = expectation.rule();
    let is_invalid = expectation.is_invalid();
    let form = on.map(|f| format!(" ({f})")).unwrap_or_default();
    let outcome = match outcome {
        Ok(o) => o,
        Err(OracleError::Unavailable { .. } | OracleError::Unsupported { .. }) => return None,
        // An invalid module often has no TOSA form to hand a translating
        // backend: that it cannot answer is no finding.
        Err(_) if is_invalid && !oracle.reads_spirv() => return None,
        Err(e) => {
            let mut d =
                Disagreement::new(Kind::OracleError, name, format!("{e}{form}")).with_message(Some(e.to_string()));
            d.discriminator = on.map(str::to_string);
            return Some(d);
        }
    };
    let graph_ops = observations.operators.clone();
    match outcome {
        ExecOutcome::Abnormal { how, detail } => {
            let kind = match how {
                // An exception out of a C API ends any C caller as a signal would.
                Abnormal::Signal(_) | Abnormal::Threw => Kind::Crash,
                Abnormal::Timeout => Kind::Timeout,
                Abnormal::OutOfMemory => Kind::OutOfMemory,
            };
            let on_what = if is_invalid { "an invalid module" } else { "a valid module" };
            let discriminator = match on {
                Some(f) => format!("{f}, {how}"),
                None => how.to_string(),
            };
            let mut d = Disagreement::new(kind, name, format!("{name} {how} on {on_what}{form}: {detail}"))
                .with_rule(invalid)
                .with_operators(graph_ops)
                .with_discriminator(Some(discriminator))
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
                Disagreement::new(Kind::RefusedValid, name, format!("{name} refuses a valid module{form}: {reason}"))
                    .with_operators(graph_ops)
                    .with_discriminator(on.map(str::to_string))
                    .with_message(last_line(reason)),
            )
        }
        ExecOutcome::Outputs(outputs) => {
            if !is_invalid {
                return None;
            }
            // A translating backend runs our TOSA translation of the
            // module, not the module: what it accepts says nothing (the
            // translation drops dead instructions, where near-valid
            // mutators put most breaks, and SPIR-V encoding rules).
            if !oracle.reads_spirv() {
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
            Some(d)
        }
    }
}

/// The name the observed form goes by in disagreements about it.
const OBSERVED_FORM: &str = "observed form";

/// The name the observed form of a rescue goes by in disagreements about it.
const RESCUE_OBSERVED_FORM: &str = "observed form of the rescue";

fn judge_one(
    expectation: &Expectation,
    observations: &Observations<'_>,
    request: &ExecRequest<'_>,
    answer: &ExecAnswer<'_>,
    vote: &mut Vote<'_>,
) -> (Vec<Disagreement>, Option<Coverage>) {
    let name = answer.oracle.name();
    let mut out: Vec<Disagreement> =
        outcome_disagreement(expectation, observations, request, answer.oracle, &answer.outcome, None)
            .into_iter()
            .collect();
    if expectation.is_invalid() {
        return (out, None);
    }
    let plain = match &answer.outcome {
        Ok(ExecOutcome::Outputs(o)) => Some(o),
        _ => None,
    };
    // The observed form's run, when it gave as many outputs as the form has.
    let observed = answer.observed.as_ref().and_then(|o| match &o.outcome {
        Ok(ExecOutcome::Outputs(v)) if v.len() == o.form.outputs.len() => Some((o.form, v)),
        _ => None,
    });
    if let Some(o) = &answer.observed {
        // A failure on the observed form alone is the backend's too (the
        // form is a valid module); one it shares with the plain form is
        // reported once, for the plain form.
        let same = match (&o.outcome, &answer.outcome) {
            (Ok(ExecOutcome::Outputs(_)), _) => true,
            (Ok(a), Ok(b)) => std::mem::discriminant(a) == std::mem::discriminant(b),
            (Err(_), Err(_)) => true,
            _ => false,
        };
        if !same {
            out.extend(outcome_disagreement(
                expectation,
                observations,
                request,
                answer.oracle,
                &o.outcome,
                Some(if o.rescue.is_some() { RESCUE_OBSERVED_FORM } else { OBSERVED_FORM }),
            ));
        }
    }
    let operators = spvgraph_ir::Module::decode_words(request.module)
        .ok()
        .and_then(|m| spvgraph_ir::observe::operators(&m, request.entry_point).ok())
        .map_or(0, |o| o.len());
    if plain.is_none() && observed.is_none() {
        let why = UnjudgedReason::of_outcome(&answer.outcome).unwrap_or(UnjudgedReason::BackendError);
        let mut c = Coverage::none(name, operators, why);
        c.not_run = super::local::why_not_run(&answer.outcome);
        return (out, Some(c));
    }
    let in_tree = match &observations.reference {
        Some(ExecOutcome::Outputs(r)) => r,
        other => {
            let why = match other {
                Some(ExecOutcome::Refused { kind: Refusal::OverBudget, .. }) => UnjudgedReason::ReferenceOverBudget,
                Some(ExecOutcome::Refused { kind: Refusal::Unpredictable, .. }) => UnjudgedReason::Unpredictable,
                _ => UnjudgedReason::ReferenceRefused,
            };
            let mut c = Coverage::none(name, operators, why);
            c.ran = true;
            return (out, Some(c));
        }
    };
    // The observed form of the rescue stands in for the case's: its values
    // are judged with the rescue's own request, outputs and reference.
    let rescued = answer.observed.as_ref().and_then(|o| o.rescue.as_ref());
    match (observed, rescued) {
        (Some((form, observed)), Some(r)) if plain.is_none() => {
            let (ds, c) = judge_observed(name, observations, &r.request, r.reference, r.outputs, form, observed, vote);
            out.extend(ds);
            (out, Some(c))
        }
        (Some((form, observed)), _) => {
            let (ds, c) =
                judge_observed(name, observations, request, in_tree, plain.map(Vec::as_slice), form, observed, vote);
            out.extend(ds);
            (out, Some(c))
        }
        (None, _) => {
            let why = match &answer.observed {
                None => UnjudgedReason::ObservedFormUnavailable,
                Some(_) => UnjudgedReason::ObservedFormNotRun,
            };
            let Some(plain) = plain else { return (out, Some(Coverage::none(name, operators, why))) };
            out.extend(judge_outputs(
                name,
                request,
                observations.reference.as_ref(),
                plain,
                vote,
                &observations.operators,
            ));
            (out, Some(fallback_coverage(name, request, operators, why)))
        }
    }
}

/// What the fallback judgement ([`judge_outputs`], the plain form's outputs
/// only) judges: the operators whose result is a graph output with no
/// approximation upstream; the other outputs' operators are unjudged
/// ([`UnjudgedReason::InexactUpstream`]), and so are the intermediate ones
/// (`why`: the observed form did not run).
fn fallback_coverage(name: &str, request: &ExecRequest<'_>, operators: usize, why: UnjudgedReason) -> Coverage {
    let mut c = Coverage::new(name, operators);
    c.ran = true;
    c.fallback = Some(why);
    let Ok(module) = Module::decode_words(request.module) else {
        c.add_unjudged(why, operators);
        return c;
    };
    let inexact = inexact_upstream(&module, request.entry_point).unwrap_or_default();
    let form = spvgraph_ir::observe::observed_form(&module, request.entry_point).ok();
    let mut judged: std::collections::BTreeSet<spvgraph_ir::Id> = std::collections::BTreeSet::new();
    let mut approximate: std::collections::BTreeSet<spvgraph_ir::Id> = std::collections::BTreeSet::new();
    let mut pass_through = 0;
    for o in form.iter().flat_map(|f| f.outputs.iter().filter(|o| o.original)) {
        match o.node {
            None => pass_through += 1,
            Some(node) if inexact.get(o.position).copied().unwrap_or(true) => {
                approximate.insert(node);
            }
            Some(node) => {
                judged.insert(node);
            }
        }
    }
    approximate.retain(|n| !judged.contains(n));
    c.outputs_judged = approximate.is_empty() && form.is_some();
    c.judged = judged.len();
    c.judged_nodes = judged.clone();
    c.pass_through = (pass_through, pass_through);
    c.add_unjudged(UnjudgedReason::InexactUpstream, approximate.len());
    c.add_unjudged(why, operators.saturating_sub(judged.len() + approximate.len()));
    c
}

/// Judges a backend's run of the observed form operator by operator
/// ([`LocalJudge`]), then its plain form's outputs against what those
/// operators imply, and the outputs that are graph inputs or constants
/// passed through against the in-tree executor's.
#[allow(clippy::too_many_arguments)]
fn judge_observed(
    name: &str,
    observations: &Observations<'_>,
    request: &ExecRequest<'_>,
    in_tree: &[TensorData],
    plain: Option<&[TensorData]>,
    form: &ObservedForm,
    observed: &[TensorData],
    vote: &mut Vote<'_>,
) -> (Vec<Disagreement>, Coverage) {
    let mut out = Vec::new();
    let mut coverage = Coverage::new(name, form.operators());
    coverage.ran = true;
    let values = match form.values(observed) {
        Ok(v) => v,
        Err(why) => {
            coverage.add_unjudged(UnjudgedReason::ObservedFormNotRun, form.operators());
            coverage.fallback = Some(UnjudgedReason::ObservedFormNotRun);
            let _ = why;
            return (out, coverage);
        }
    };
    let wrong = |oracles: Vec<String>, op: Option<TosaOp>, detail: String| {
        let mut d = Disagreement::new(Kind::WrongOutput, name, detail);
        d.oracles = oracles;
        d.operators = match op {
            Some(op) => vec![op],
            None => observations.operators.clone(),
        };
        d
    };
    // One value written to several outputs must be the same in each.
    for (value, p, q) in form.inconsistent_slots(observed) {
        let op = form.outputs.iter().find(|o| o.value == value).and_then(|o| o.op);
        out.push(wrong(
            vec![name.to_string()],
            op,
            format!("{name} writes value {value} differently to outputs {p} and {q} of the observed form"),
        ));
    }
    // Outputs passed through from inputs or constants come back unchanged.
    for o in form.outputs.iter().filter(|o| o.original && o.node.is_none()) {
        coverage.pass_through.0 += 1;
        let Some(r) = in_tree.get(o.position) else { continue };
        coverage.pass_through.1 += 1;
        for (label, run) in [(OBSERVED_FORM, Some(observed)), ("plain form", plain)] {
            let Some(c) = run.and_then(|r| r.get(o.position)) else { continue };
            if let Direct::Differ(d) | Direct::Mismatch(d) = compare_direct(None, r, c) {
                out.push(wrong(
                    vec![name.to_string()],
                    None,
                    format!("output {} ({label}), a value passed through: {d}", o.position),
                ));
            }
        }
    }
    let mut local = LocalJudge::new(request, &values, vote.referee());
    let verdicts = local.judge(name, &|o| candidate_of(&values, o));
    let output_nodes: std::collections::BTreeSet<spvgraph_ir::Id> =
        form.outputs.iter().filter(|o| o.original).filter_map(|o| o.node).collect();
    coverage.outputs_judged = true;
    for v in &verdicts {
        match &v.outcome {
            OperatorOutcome::Unjudged { reason, detail } => {
                coverage.add_unjudged(*reason, 1);
                coverage.detail(v.op, v.node, *reason, detail);
                if output_nodes.contains(&v.node) {
                    coverage.outputs_judged = false;
                }
            }
            _ => {
                coverage.judged += 1;
                coverage.judged_nodes.insert(v.node);
            }
        }
    }
    let first = verdicts.iter().find(|v| matches!(v.outcome, OperatorOutcome::Wrong { .. }));
    if let Some(OperatorVerdict { node, op, outcome: OperatorOutcome::Wrong { oracles, detail }, .. }) = first {
        let mut d = wrong(oracles.clone(), Some(*op), detail.clone());
        if local.reads(*node, crate::compliance::flush::has_subnormals) {
            d.operand_features.insert(crate::features::Feature::SubnormalInputs);
        }
        if local.reads(*node, crate::features::has_non_finite) {
            d.operand_features.insert(crate::features::Feature::NonFiniteValues);
        }
        if local.about(*node, crate::features::feeds_single_row_scatter) {
            d.operand_features.insert(crate::features::Feature::SingleRowScatterInput);
        }
        if local.about(*node, crate::features::rounds_to_fp8) {
            d.operand_features.insert(crate::features::Feature::Fp8RoundedResult);
        }
        out.push(d);
    } else if let Some(plain) = plain {
        out.extend(judge_plain(name, request, form, plain, observed, &mut local));
    }
    out.extend(local.take_notes());
    (out, coverage)
}

/// The plain form's outputs on the same backend against what its run of
/// the observed form implies: each output whose upstream is exact (so its
/// operands must be those the observed form shows) is judged under its
/// operator's rule from those operands; the first that breaks it is an
/// [`Kind::ObservedFormDiffers`]. Outputs computed from approximations may
/// legitimately differ between the two runs (a compliant backend may
/// approximate differently when the values in between are not outputs).
fn judge_plain(
    name: &str,
    request: &ExecRequest<'_>,
    form: &ObservedForm,
    plain: &[TensorData],
    observed: &[TensorData],
    local: &mut LocalJudge<'_>,
) -> Option<Disagreement> {
    if plain.len() != form.original_outputs {
        let mut d = Disagreement::new(
            Kind::ObservedFormDiffers,
            name,
            format!("{} outputs of the plain form where the graph has {}", plain.len(), form.original_outputs),
        );
        d.discriminator = Some("output count".into());
        return Some(d);
    }
    let inexact = Module::decode_words(request.module)
        .ok()
        .and_then(|m| inexact_upstream(&m, request.entry_point).ok())
        .unwrap_or_default();
    // The plain form's value of each operator result it outputs, where it differs from the observed form's.
    let mut differing: Vec<(Option<u32>, spvgraph_ir::Id, spvgraph_ir::Id, TensorData)> = Vec::new();
    for o in form.outputs.iter().filter(|o| o.original && o.position < plain.len()) {
        let (Some(node), Some(p), Some(q)) = (o.node, plain.get(o.position), observed.get(o.position)) else {
            continue;
        };
        if inexact.get(o.position).copied().unwrap_or(true) || (p.to_bits() == q.to_bits() && p.shape() == q.shape()) {
            continue;
        }
        differing.push((o.member, node, o.value, p.clone()));
    }
    if differing.is_empty() {
        return None;
    }
    let candidate = |o: &LocalOutput| {
        differing
            .iter()
            .find(|(member, node, value, _)| match (o.member, member) {
                (Some(k), Some(m)) => *node == o.node && k == *m,
                (None, None) => *value == o.value,
                _ => false,
            })
            .map(|(_, _, _, t)| t.clone())
    };
    let verdicts = local.judge(name, &candidate);
    let first = verdicts.iter().find(|v| matches!(v.outcome, OperatorOutcome::Wrong { .. }))?;
    let OperatorOutcome::Wrong { oracles, detail } = &first.outcome else { return None };
    let mut d = Disagreement::new(
        Kind::ObservedFormDiffers,
        name,
        format!(
            "the plain form's output of {} is not what the operator gives on the operand values {name} computed in              the observed form, where its own result is compliant: {detail}",
            first.op
        ),
    );
    d.oracles = oracles.iter().filter(|o| o.as_str() == name).cloned().collect();
    if d.oracles.is_empty() {
        d.oracles = oracles.clone();
    }
    d.operators = vec![first.op];
    Some(d)
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

//! Running cases in several forms on one backend: which forms to run, the
//! rounds of batches (every case and the first stage of every form in one
//! batch, then the stages fed by earlier ones and the rescues of refused
//! cases), and the outputs of each form put back in the case's order.

use super::{apply, rescue, Form, Rewritten};
use crate::features::{self, FeatureSet};
use crate::judge::{fnv1a, ObservedAnswer, RescuedRun};
use crate::oracle::{ExecOutcome, ExecRequest, Oracle, OracleError, OwnedExecRequest, Refusal};
use spvgraph_ir::observe::{observed_form, ObservedForm};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;

/// What a backend answered for one form of a case.
#[derive(Clone, Debug, PartialEq)]
pub struct FormRun {
    /// The form.
    pub form: Rewritten,
    /// Its outcome: the case's outputs in the case's order (put together
    /// from every stage), or the first stage's refusal or end.
    pub outcome: Result<ExecOutcome, OracleError>,
}

/// What a backend answered for one case.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseRuns {
    /// The case as given.
    pub plain: Result<ExecOutcome, OracleError>,
    /// The forms compared with it.
    pub forms: Vec<FormRun>,
    /// The case again in a form without the constructs backends are known
    /// to refuse, when the case as given was refused or crashed.
    pub rescue: Option<FormRun>,
    /// The case's observed form (every intermediate value an output), when
    /// it was asked for ([`FormCase::observed`]).
    pub observed: Option<Outcome>,
    /// The rescue's own observed form and the backend's runs of the rescue
    /// and of it, when the case was rescued and observed forms were asked
    /// for: a case the backend can only run rescued is then still judged
    /// operator by operator.
    pub rescue_observed: Option<RescueObserved>,
}

/// A rescue's observed form and what the backend made of it.
#[derive(Clone, Debug, PartialEq)]
pub struct RescueObserved {
    /// The rescue's request (one stage: the rescue forms keep the operators).
    pub request: OwnedExecRequest,
    /// Its observed form.
    pub form: ObservedForm,
    /// The backend's outputs of the rescue, in the rescue's own order.
    pub outputs: Option<Vec<TensorData>>,
    /// The backend's outcome on the observed form.
    pub outcome: Outcome,
    /// The in-tree executor's outputs on the rescue, when the observed form
    /// gave outputs to judge.
    pub reference: Option<Vec<TensorData>>,
}

/// The observed-form answer to judge `runs` with ([`crate::judge`]): the
/// backend's run of the case's observed form `form`; or, when the backend
/// gave no outputs for the case as given and its rescue's observed form
/// gave outputs, that one, with the rescue's run.
pub fn observed_answer<'a>(runs: &'a CaseRuns, form: Option<&'a ObservedForm>) -> Option<ObservedAnswer<'a>> {
    let plain_ran = matches!(runs.plain, Ok(ExecOutcome::Outputs(_)));
    if let (false, Some(r)) = (plain_ran, &runs.rescue_observed) {
        if let (Ok(ExecOutcome::Outputs(_)), Some(reference)) = (&r.outcome, &r.reference) {
            return Some(ObservedAnswer {
                form: &r.form,
                outcome: r.outcome.clone(),
                rescue: Some(RescuedRun { request: r.request.request(), outputs: r.outputs.as_deref(), reference }),
            });
        }
    }
    Some(ObservedAnswer { form: form?, outcome: runs.observed.clone()?, rescue: None })
}

/// Whether an outcome calls for a rescue: the backend refused the case or
/// died on it (not a refusal that no form changes: over budget,
/// unpredictable).
pub fn needs_rescue(outcome: &Result<ExecOutcome, OracleError>) -> bool {
    match outcome {
        Ok(ExecOutcome::Refused { kind: Refusal::OverBudget | Refusal::Unpredictable, .. }) => false,
        Ok(ExecOutcome::Refused { .. } | ExecOutcome::Abnormal { .. }) => true,
        Ok(ExecOutcome::Outputs(_)) | Err(_) => false,
    }
}

/// Whether form `r` puts into the case a construct that `oracle` is
/// documented to mishandle and the case does not have (`plain` its
/// features): running it would show only that known bug.
pub fn adds_documented(oracle: &dyn Oracle, plain: &FeatureSet, r: &Rewritten) -> bool {
    let added: FeatureSet = r
        .stages
        .iter()
        .flat_map(|s| features::detect_words(&s.request.module, Some(&s.request.request())))
        .filter(|f| !plain.contains(f))
        .collect();
    !added.is_empty()
        && oracle
            .known_discrepancies()
            .iter()
            .any(|k| !k.features.is_empty() && k.features.iter().any(|f| added.contains(f)))
}

/// Up to `count` forms of `request`, chosen by `seed`: forms that keep the
/// operator sequence first (one run each), then identity operators, then
/// a split (two runs), each kind in an order the seed shuffles. `skip`
/// leaves out forms the caller does not want (see [`adds_documented`]).
pub fn choose(
    request: &OwnedExecRequest,
    seed: u64,
    count: usize,
    skip: impl Fn(&Rewritten) -> bool,
) -> Vec<Rewritten> {
    let mut out = Vec::new();
    if count == 0 {
        return out;
    }
    let rank = |f: &Form| match (f.keeps_operators(), matches!(f, Form::SplitEntryPoints | Form::SplitModules)) {
        (true, _) => 0,
        (false, false) => 1,
        (false, true) => 2,
    };
    let mut order: Vec<Form> = Form::ALL.to_vec();
    // The seed shuffles each kind: forms sorted by a hash of seed and name.
    order.sort_by_key(|f| (rank(f), fnv1a(&[seed.to_le_bytes().as_slice(), f.name().as_bytes()].concat())));
    // One case in four spends its last form on a changed operator sequence.
    let changed_slot = seed % 4 == 0;
    for form in order {
        let last = out.len() + 1 == count;
        if rank(&form) > 0 && !(last && changed_slot) {
            continue;
        }
        if rank(&form) == 0 && last && changed_slot {
            continue;
        }
        if let Ok(r) = apply(form, request) {
            if !skip(&r) {
                out.push(r);
            }
        }
        if out.len() == count {
            break;
        }
    }
    out
}

/// A backend's answer to one request.
pub type Outcome = Result<ExecOutcome, OracleError>;

/// A backend's batch call: one outcome per request, in order.
pub type BatchRun<'a> = dyn FnMut(&[ExecRequest<'_>]) -> Vec<Outcome> + 'a;

/// One request of a round: which case, which form (`None`: the case as
/// given), which stage.
#[derive(Clone, Copy, Debug)]
enum Slot {
    Plain(usize),
    Form { case: usize, form: usize, stage: usize },
    Rescue { case: usize },
    Observed(usize),
    RescueObserved(usize),
}

/// The state of one form's run.
#[derive(Clone, Debug)]
struct Progress {
    outputs: Vec<Vec<TensorData>>,
    end: Option<Result<ExecOutcome, OracleError>>,
}

/// A rescue with its observed form while they run: the rescue's request,
/// its observed form, the rescue's raw outcome and the observed form's.
type PendingRescue = (OwnedExecRequest, ObservedForm, Option<Outcome>, Option<Outcome>);

/// One case to run in several forms.
#[derive(Clone, Debug)]
pub struct FormCase<'r> {
    /// The case as given.
    pub request: &'r OwnedExecRequest,
    /// The forms to compare with it ([`choose`]).
    pub forms: Vec<Rewritten>,
    /// Whether to run it again in a form without known-refused constructs
    /// ([`rescue`]) when the backend refuses it or dies on it (valid cases only).
    pub rescue: bool,
    /// The case's observed form (every intermediate value an output, so
    /// that each operator is judged on its own), run with the case in the
    /// first round.
    pub observed: Option<OwnedExecRequest>,
}

/// Runs every case of `cases` through `run` (a backend's batch call: one
/// outcome per request, in order), in rounds: the cases and every form's
/// first stage, then the stages their outputs feed and the rescues of the
/// cases the backend refused.
pub fn run_cases(cases: &[FormCase<'_>], run: &mut BatchRun<'_>) -> Vec<CaseRuns> {
    let mut plain: Vec<Option<Result<ExecOutcome, OracleError>>> = vec![None; cases.len()];
    let mut progress: Vec<Vec<Progress>> =
        cases.iter().map(|c| c.forms.iter().map(|_| Progress { outputs: Vec::new(), end: None }).collect()).collect();
    let mut rescues: Vec<Option<(Rewritten, Option<Outcome>)>> = vec![None; cases.len()];
    let mut observed: Vec<Option<Outcome>> = vec![None; cases.len()];
    let mut rescue_observed: Vec<Option<PendingRescue>> = vec![None; cases.len()];
    // Round one: the cases and every first stage.
    let mut owned: Vec<(Slot, OwnedExecRequest)> = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        owned.push((Slot::Plain(c), case.request.clone()));
        if let Some(r) = &case.observed {
            owned.push((Slot::Observed(c), r.clone()));
        }
        for (f, form) in case.forms.iter().enumerate() {
            if let Some(first) = form.fill(0, &[]) {
                owned.push((Slot::Form { case: c, form: f, stage: 0 }, first));
            }
        }
    }
    let mut round = 0;
    while !owned.is_empty() {
        let requests: Vec<ExecRequest<'_>> = owned.iter().map(|(_, r)| r.request()).collect();
        let mut outcomes = run(&requests);
        outcomes.resize_with(owned.len(), || {
            Err(OracleError::Failed { oracle: "backend".into(), reason: "no outcome for this request".into() })
        });
        let mut next: Vec<(Slot, OwnedExecRequest)> = Vec::new();
        for ((slot, _), outcome) in owned.into_iter().zip(outcomes) {
            match slot {
                Slot::Plain(c) => {
                    let wanted = cases.get(c).filter(|case| case.rescue && needs_rescue(&outcome));
                    if let Some(case) = wanted {
                        if let Some(r) = rescue(case.request) {
                            if let Some(req) = r.fill(0, &[]) {
                                if case.observed.is_some() {
                                    if let Some((form, words)) = observed_of(&req) {
                                        let observed_req = OwnedExecRequest { module: words, ..req.clone() };
                                        next.push((Slot::RescueObserved(c), observed_req));
                                        rescue_observed[c] = Some((req.clone(), form, None, None));
                                    }
                                }
                                next.push((Slot::Rescue { case: c }, req));
                                rescues[c] = Some((r, None));
                            }
                        }
                    }
                    plain[c] = Some(outcome);
                }
                Slot::Observed(c) => {
                    if let Some(slot) = observed.get_mut(c) {
                        *slot = Some(outcome);
                    }
                }
                Slot::Rescue { case } => {
                    if let Some((_, _, raw, _)) = rescue_observed.get_mut(case).and_then(Option::as_mut) {
                        *raw = Some(outcome.clone());
                    }
                    if let Some((_, slot)) = rescues.get_mut(case).and_then(Option::as_mut) {
                        *slot = Some(outcome);
                    }
                }
                Slot::RescueObserved(c) => {
                    if let Some((_, _, _, slot)) = rescue_observed.get_mut(c).and_then(Option::as_mut) {
                        *slot = Some(outcome);
                    }
                }
                Slot::Form { case, form, stage } => {
                    let Some(p) = progress.get_mut(case).and_then(|v| v.get_mut(form)) else { continue };
                    let Some(rewritten) = cases.get(case).and_then(|c| c.forms.get(form)) else { continue };
                    match outcome {
                        Ok(ExecOutcome::Outputs(outputs)) => {
                            p.outputs.push(outputs);
                            if stage + 1 < rewritten.stages.len() {
                                match rewritten.fill(stage + 1, &p.outputs) {
                                    Some(req) => next.push((Slot::Form { case, form, stage: stage + 1 }, req)),
                                    None => {
                                        p.end = Some(Err(OracleError::Failed {
                                            oracle: "backend".into(),
                                            reason: format!(
                                                "stage {stage}'s outputs do not fit stage {}'s inputs",
                                                stage + 1
                                            ),
                                        }))
                                    }
                                }
                            }
                        }
                        other => p.end = Some(other),
                    }
                }
            }
        }
        owned = next;
        round += 1;
        if round > 8 {
            break;
        }
    }
    cases
        .iter()
        .enumerate()
        .map(|(c, case)| {
            let runs = case
                .forms
                .iter()
                .zip(progress.get(c).cloned().unwrap_or_default())
                .map(|(form, p)| FormRun { form: form.clone(), outcome: finish(form, p) })
                .collect();
            let rescue = rescues.get(c).cloned().flatten().map(|(form, outcome)| {
                let outcome = match outcome {
                    Some(Ok(ExecOutcome::Outputs(o))) => {
                        form.assemble(&[o]).map(ExecOutcome::Outputs).ok_or_else(|| OracleError::Failed {
                            oracle: "backend".into(),
                            reason: "an output of the rescue is missing".into(),
                        })
                    }
                    Some(other) => other,
                    None => {
                        Err(OracleError::Failed { oracle: "backend".into(), reason: "the rescue did not run".into() })
                    }
                };
                FormRun { form, outcome }
            });
            let plain = plain.get(c).cloned().flatten().unwrap_or_else(|| {
                Err(OracleError::Failed { oracle: "backend".into(), reason: "the case did not run".into() })
            });
            let observed = match (&case.observed, observed.get(c).cloned().flatten()) {
                (Some(_), Some(outcome)) => Some(outcome),
                (Some(_), None) => Some(Err(OracleError::Failed {
                    oracle: "backend".into(),
                    reason: "the observed form did not run".into(),
                })),
                (None, _) => None,
            };
            let rescue_observed = rescue_observed.get(c).cloned().flatten().map(|(request, form, raw, outcome)| {
                let outcome = outcome.unwrap_or_else(|| {
                    Err(OracleError::Failed {
                        oracle: "backend".into(),
                        reason: "the rescue's observed form did not run".into(),
                    })
                });
                let reference = match &outcome {
                    Ok(ExecOutcome::Outputs(_)) => in_tree_outputs(&request),
                    _ => None,
                };
                let outputs = match raw {
                    Some(Ok(ExecOutcome::Outputs(o))) => Some(o),
                    _ => None,
                };
                RescueObserved { request, form, outputs, outcome, reference }
            });
            CaseRuns { plain, forms: runs, rescue, observed, rescue_observed }
        })
        .collect()
}

/// The in-tree executor's outputs on `request`, when it gives outputs.
fn in_tree_outputs(request: &OwnedExecRequest) -> Option<Vec<TensorData>> {
    match crate::exec::Executor::default().execute(&request.request()) {
        Ok(ExecOutcome::Outputs(o)) => Some(o),
        _ => None,
    }
}

/// The observed form of `request`'s graph and its words, when it has one.
fn observed_of(request: &OwnedExecRequest) -> Option<(ObservedForm, Vec<u32>)> {
    let module = Module::decode_words(&request.module).ok()?;
    let form = observed_form(&module, request.entry_point.as_deref()).ok()?;
    let words = form.module.encode_words().ok()?;
    Some((form, words))
}

/// A form's outcome once its stages ran.
fn finish(form: &Rewritten, p: Progress) -> Result<ExecOutcome, OracleError> {
    if let Some(end) = p.end {
        return end;
    }
    form.assemble(&p.outputs).map(ExecOutcome::Outputs).ok_or_else(|| OracleError::Failed {
        oracle: "backend".into(),
        reason: format!("{} of {} stages ran", p.outputs.len(), form.stages.len()),
    })
}

/// `form` run on `oracle` alone, stage after stage (no batching): the case's
/// outputs in the case's order, or the first stage's refusal or end.
pub fn run_form(oracle: &dyn Oracle, form: &Rewritten) -> Result<ExecOutcome, OracleError> {
    let mut outputs = Vec::new();
    for k in 0..form.stages.len() {
        let Some(request) = form.fill(k, &outputs) else {
            return Err(OracleError::Failed {
                oracle: oracle.name().to_string(),
                reason: format!("stage {k}'s inputs do not fit the outputs that feed them"),
            });
        };
        match oracle.executor()?.execute(&request.request())? {
            ExecOutcome::Outputs(o) => outputs.push(o),
            other => return Ok(other),
        }
    }
    Ok(form.assemble(&outputs).map_or_else(
        || ExecOutcome::Refused { kind: Refusal::Invalid, reason: "an output of the form is missing".into() },
        ExecOutcome::Outputs,
    ))
}

/// The in-tree executor's outcome on `form` (every stage run in turn): the
/// reference its outputs are judged against.
pub fn in_tree_reference(form: &Rewritten) -> Option<ExecOutcome> {
    run_form(&crate::exec::Executor::default(), form).ok()
}

/// `oracle`'s runs of one case as [`crate::judge`] takes them: every form
/// compared and the rescue, each with the in-tree executor's outcome on it
/// (`references`: one per form of `runs.forms`, then the rescue's; missing
/// ones are computed).
pub fn answers<'a>(
    oracle: &'a dyn Oracle,
    runs: &'a CaseRuns,
    references: &[Option<ExecOutcome>],
) -> Vec<crate::judge::FormAnswer<'a>> {
    let mut out = Vec::new();
    let all = runs.forms.iter().map(|r| (r, false)).chain(runs.rescue.iter().map(|r| (r, true)));
    for (k, (run, rescue)) in all.enumerate() {
        let reference = match references.get(k) {
            Some(r) => r.clone(),
            None => in_tree_reference(&run.form),
        };
        out.push(crate::judge::FormAnswer { oracle, form: &run.form, outcome: run.outcome.clone(), reference, rescue });
    }
    out
}

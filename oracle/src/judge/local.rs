//! Judging every operator of a graph on its own, as the TOSA conformance
//! suite does: the reference of each operator is computed from the values
//! a backend gave its operands (graph inputs, constants, and what the
//! backend computed upstream, shown by its run of the observed form,
//! [`spvgraph_ir::observe::observed_form`]), and the backend's result is
//! held to that operator's accuracy rule (exact for integers; ULP,
//! absolute, dot-product bounds for floating point; the flushed-subnormal
//! alternative as for whole graphs).
//!
//! The graph is cut into its operators ([`spvgraph_ir::observe::local_form`]):
//! every computed operand becomes an input fed with the backend's value,
//! and the in-tree executor runs the cut graph once. Where its result and
//! the backend's differ beyond the rule (or the rule needs a bounds
//! tensor), the referee's precise run of the cut graph settles it, once for
//! all operators. So no operator's verdict depends on what lies upstream,
//! and the first operator in graph order that breaks its rule is the one a
//! finding names.

use super::execution::{compare_direct, Direct, Vote};
use super::Disagreement;
use crate::compliance::{output_contexts, Judged, OpContext, OutputVerdict};
use crate::exec::{ExecError, Executor};
use crate::oracle::{ExecOutcome, ExecRequest, Oracle, OwnedExecRequest};
use spvgraph_ir::observe::{
    local_form, operators, LocalForm, LocalOperator, LocalOutput, ObserveError, ObservedValues,
};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Id, Module};
use std::collections::{BTreeMap, BTreeSet};

spvgraph_ir::enum_with_all! {
    /// Why an operator of a case a backend was sent is not judged. Each
    /// operator result is an output of the observed form, so these count
    /// unjudged outputs of the observed form, one per operator.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum UnjudgedReason {
        /// The backend cannot express the case (it says so: a construct,
        /// interface or type it does not support).
        BackendUnsupported,
        /// The backend refused the case (a finding, or a documented refusal).
        BackendRefused,
        /// The run would exceed the backend's resource budget.
        BackendOverBudget,
        /// The backend found a REQUIRE failing at run time: no defined result.
        BackendUnpredictable,
        /// The backend crashed, hung or ran out of memory.
        BackendAbnormal,
        /// The backend could not answer at all (an oracle error).
        BackendError,
        /// The in-tree executor has no outputs for the case: a REQUIRE fails at
        /// run time, so no result is defined.
        Unpredictable,
        /// The in-tree executor has no outputs for the case: over its memory budget.
        ReferenceOverBudget,
        /// The in-tree executor has no outputs for the case: it refuses it.
        ReferenceRefused,
        /// Fallback: the module has no observed form (it cannot be rewritten,
        /// or it was not asked for), so only graph outputs are judged and the
        /// operators whose results are not outputs are not.
        ObservedFormUnavailable,
        /// Fallback: the backend's run of the observed form gave no outputs
        /// (or not as many as the form has), so only graph outputs are judged
        /// and the operators whose results are not outputs are not.
        ObservedFormNotRun,
        /// The observed form does not show the operator's result (it is not a
        /// shaped tensor, so it cannot be a graph output).
        NotObserved,
        /// Fallback: a graph output computed from approximations (an inexact
        /// operator upstream): two compliant backends may differ there by more
        /// than the last operator's rule allows.
        InexactUpstream,
        /// An operand of the operator is a value the backend's run of the
        /// observed form did not show.
        OperandNotObserved,
        /// On the backend's values of its operands, a REQUIRE of the operator
        /// fails: no result is defined for it.
        OperatorUnpredictable,
        /// The in-tree executor could not run the operators on their own (over
        /// its budget, or the cut graph could not be made).
        LocalFormFailed,
        /// The result differs from the in-tree executor's beyond what a direct
        /// comparison can settle, and no referee could run.
        NoReferee,
        /// The operator's accuracy rule needs a fact nothing could give, or the
        /// referee condemns both results without a direct difference.
        Incomparable,
    }
    /// Every reason, in report order.
    pub const ALL;
}

impl UnjudgedReason {
    /// Its stable kebab-case name (as in `summary.json`).
    pub fn name(self) -> &'static str {
        match self {
            UnjudgedReason::BackendUnsupported => "backend-unsupported",
            UnjudgedReason::BackendRefused => "backend-refused",
            UnjudgedReason::BackendOverBudget => "backend-over-budget",
            UnjudgedReason::BackendUnpredictable => "backend-unpredictable",
            UnjudgedReason::BackendAbnormal => "backend-abnormal",
            UnjudgedReason::BackendError => "backend-error",
            UnjudgedReason::Unpredictable => "unpredictable",
            UnjudgedReason::ReferenceOverBudget => "reference-over-budget",
            UnjudgedReason::ReferenceRefused => "reference-refused",
            UnjudgedReason::ObservedFormUnavailable => "observed-form-unavailable",
            UnjudgedReason::ObservedFormNotRun => "observed-form-not-run",
            UnjudgedReason::NotObserved => "not-observed",
            UnjudgedReason::InexactUpstream => "inexact-upstream",
            UnjudgedReason::OperandNotObserved => "operand-not-observed",
            UnjudgedReason::OperatorUnpredictable => "operator-unpredictable",
            UnjudgedReason::LocalFormFailed => "local-form-failed",
            UnjudgedReason::NoReferee => "no-referee",
            UnjudgedReason::Incomparable => "incomparable",
        }
    }

    /// What it means, for people.
    pub fn meaning(self) -> &'static str {
        match self {
            UnjudgedReason::BackendUnsupported => "the backend cannot express the case",
            UnjudgedReason::BackendRefused => "the backend refused the case",
            UnjudgedReason::BackendOverBudget => "the run would exceed the backend's resource budget",
            UnjudgedReason::BackendUnpredictable => "the backend found a REQUIRE failing: no defined result",
            UnjudgedReason::BackendAbnormal => "the backend crashed, hung or ran out of memory",
            UnjudgedReason::BackendError => "the backend could not answer",
            UnjudgedReason::Unpredictable => "a REQUIRE fails on the case's inputs: no defined result",
            UnjudgedReason::ReferenceOverBudget => "the in-tree executor is over its memory budget",
            UnjudgedReason::ReferenceRefused => "the in-tree executor refuses the case",
            UnjudgedReason::ObservedFormUnavailable => "fallback: the module has no observed form",
            UnjudgedReason::ObservedFormNotRun => "fallback: the backend's run of the observed form gave no outputs",
            UnjudgedReason::NotObserved => "the observed form does not show the operator's result",
            UnjudgedReason::InexactUpstream => "fallback: an output computed from approximations",
            UnjudgedReason::OperandNotObserved => "an operand the observed form did not show",
            UnjudgedReason::OperatorUnpredictable => "a REQUIRE fails on the backend's operand values",
            UnjudgedReason::LocalFormFailed => "the operators could not be run on their own",
            UnjudgedReason::NoReferee => "a difference no referee could settle",
            UnjudgedReason::Incomparable => "the accuracy rule lacks a fact, or the referee condemns both",
        }
    }

    /// The reason a backend's outcome without outputs leaves every operator unjudged.
    pub fn of_outcome(outcome: &Result<ExecOutcome, crate::oracle::OracleError>) -> Option<UnjudgedReason> {
        use crate::oracle::{OracleError, Refusal};
        Some(match outcome {
            Ok(ExecOutcome::Outputs(_)) => return None,
            Ok(ExecOutcome::Refused { kind: Refusal::Unsupported, .. }) => UnjudgedReason::BackendUnsupported,
            Ok(ExecOutcome::Refused { kind: Refusal::OverBudget, .. }) => UnjudgedReason::BackendOverBudget,
            Ok(ExecOutcome::Refused { kind: Refusal::Unpredictable, .. }) => UnjudgedReason::BackendUnpredictable,
            Ok(ExecOutcome::Refused { kind: Refusal::Invalid | Refusal::Rejected, .. }) => {
                UnjudgedReason::BackendRefused
            }
            Ok(ExecOutcome::Abnormal { .. }) => UnjudgedReason::BackendAbnormal,
            Err(OracleError::Unsupported { .. }) => UnjudgedReason::BackendUnsupported,
            Err(OracleError::Unavailable { .. } | OracleError::Failed { .. }) => UnjudgedReason::BackendError,
        })
    }
}

impl std::fmt::Display for UnjudgedReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What was judged of one backend's run of one case.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Coverage {
    /// The backend.
    pub oracle: String,
    /// The TOSA operators of the graph the case runs.
    pub operators: usize,
    /// Those judged: on their own, or (fallback) through a graph output
    /// with no approximation upstream.
    pub judged: usize,
    /// Those not judged, by reason.
    pub unjudged: BTreeMap<UnjudgedReason, usize>,
    /// Whether the backend gave outputs (of the plain or the observed form).
    pub ran: bool,
    /// Whether the judgement fell back to the plain form's outputs (the
    /// observed form could not be made or run), and why.
    pub fallback: Option<UnjudgedReason>,
    /// Graph outputs that are not operator results (inputs or constants
    /// passed through), and how many of them were compared.
    pub pass_through: (usize, usize),
    /// Whether every graph output of the case was judged (each output's
    /// operator judged, on its own or, in the fallback, with no
    /// approximation upstream), whatever became of intermediate operators.
    pub outputs_judged: bool,
    /// The first few unjudged operators, each with why in full.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
    /// For a case the backend gave no outputs for: why, in a few words
    /// ([`why_not_run`]), so that cases not run are named by reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_run: Option<String>,
    /// The operators judged, by result id (of the case's graph as given,
    /// which its observed form keeps): what a judged-coverage map learns.
    #[serde(skip)]
    pub judged_nodes: std::collections::BTreeSet<spvgraph_ir::Id>,
}

/// How many characters of a refusal name why a case did not run.
const NOT_RUN_LABEL: usize = 90;

/// Why a backend's outcome gave no outputs, in a few words: a refusal's
/// kind and the first two clauses of its reason (`iree-compile: fp8 is not
/// supported on llvm-cpu`), how a process ended, or an oracle error;
/// `None` for outputs.
pub fn why_not_run(outcome: &Result<ExecOutcome, crate::oracle::OracleError>) -> Option<String> {
    let reason = UnjudgedReason::of_outcome(outcome)?;
    let words = match outcome {
        Ok(ExecOutcome::Refused { reason, .. }) => reason.split(": ").take(2).collect::<Vec<_>>().join(": "),
        Ok(ExecOutcome::Abnormal { how, .. }) => how.to_string(),
        Ok(ExecOutcome::Outputs(_)) | Err(_) => String::new(),
    };
    let words: String = words.chars().take(NOT_RUN_LABEL).collect();
    Some(if words.is_empty() { reason.name().to_string() } else { format!("{}: {words}", reason.name()) })
}

/// How many unjudged operators a [`Coverage`] describes in full.
const DETAILS: usize = 8;

impl Coverage {
    /// Records why operator `op` (result `node`) was not judged, in full,
    /// for the first few.
    pub fn detail(&mut self, op: TosaOp, node: Id, reason: UnjudgedReason, detail: &str) {
        if self.details.len() < DETAILS {
            let text: String = detail.chars().take(600).collect();
            self.details.push(format!("{op} {node}: {reason}: {text}"));
        }
    }

    /// A coverage of `operators` operators, nothing judged yet.
    pub fn new(oracle: &str, operators: usize) -> Coverage {
        Coverage { oracle: oracle.to_string(), operators, ..Coverage::default() }
    }

    /// Every operator (and output passed through) left unjudged for `why`.
    pub fn none(oracle: &str, operators: usize, why: UnjudgedReason) -> Coverage {
        let mut c = Coverage::new(oracle, operators);
        if operators > 0 {
            c.unjudged.insert(why, operators);
        }
        c
    }

    /// Counts `n` operators unjudged for `why`.
    pub fn add_unjudged(&mut self, why: UnjudgedReason, n: usize) {
        if n > 0 {
            *self.unjudged.entry(why).or_default() += n;
        }
    }

    /// Whether every operator (and every output passed through) was judged
    /// on a run that gave outputs.
    pub fn complete(&self) -> bool {
        self.ran
            && self.judged == self.operators
            && self.unjudged.is_empty()
            && self.pass_through.0 == self.pass_through.1
    }
}

impl std::fmt::Display for Coverage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = match self.fallback {
            None => "on its own",
            Some(_) => "through a graph output",
        };
        write!(f, "{}: {} of {} operator(s), each {how}", self.oracle, self.judged, self.operators)?;
        if let Some(why) = self.fallback {
            write!(f, " (fallback: {})", why.meaning())?;
        }
        for (why, n) in &self.unjudged {
            write!(f, "; {n} unjudged: {}", why.meaning())?;
        }
        if self.pass_through.0 > 0 {
            write!(f, "; {} of {} output(s) passed through compared", self.pass_through.1, self.pass_through.0)?;
        }
        Ok(())
    }
}

/// The verdict on one operator.
#[derive(Clone, Debug, PartialEq)]
pub enum OperatorOutcome {
    /// Its result meets its rule.
    Compliant,
    /// Its result breaks its rule: the oracles at fault (the backend, the
    /// in-tree executor, or both when the referee could not tell), and
    /// what was seen.
    Wrong {
        /// The culprits.
        oracles: Vec<String>,
        /// The three answers, in full.
        detail: String,
    },
    /// Not judged, and why.
    Unjudged {
        /// Why.
        reason: UnjudgedReason,
        /// In words.
        detail: String,
    },
}

/// One operator's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct OperatorVerdict {
    /// Its result id.
    pub node: Id,
    /// Its operator.
    pub op: TosaOp,
    /// Its place in graph order (from 0).
    pub order: usize,
    /// The verdict.
    pub outcome: OperatorOutcome,
}

/// What [`judge_operators`] found.
#[derive(Clone, Debug, Default)]
pub struct OperatorJudgement {
    /// Every operator of the graph, in graph order.
    pub verdicts: Vec<OperatorVerdict>,
    /// `checker-disagrees-with-reference` notes of the referee (charged to no oracle).
    pub notes: Vec<Disagreement>,
}

impl OperatorJudgement {
    /// The first operator in graph order that breaks its rule.
    pub fn first_wrong(&self) -> Option<&OperatorVerdict> {
        self.verdicts.iter().find(|v| matches!(v.outcome, OperatorOutcome::Wrong { .. }))
    }

    /// How many operators were judged (compliant or wrong).
    pub fn judged(&self) -> usize {
        self.verdicts.iter().filter(|v| !matches!(v.outcome, OperatorOutcome::Unjudged { .. })).count()
    }

    /// The unjudged operators by reason.
    pub fn unjudged(&self) -> BTreeMap<UnjudgedReason, usize> {
        let mut out = BTreeMap::new();
        for v in &self.verdicts {
            if let OperatorOutcome::Unjudged { reason, .. } = v.outcome {
                *out.entry(reason).or_default() += 1;
            }
        }
        out
    }
}

/// Judges every operator of the graph `request` runs on its own, from
/// `values`: what backend `backend` computed for each operator result (by
/// the ids of `request`'s module; see
/// [`spvgraph_ir::observe::ObservedForm::values`]). `referee` settles what a
/// direct comparison with the in-tree executor cannot. Works for any form
/// of a graph whose operator results a backend showed.
pub fn judge_operators(
    request: &ExecRequest<'_>,
    values: &ObservedValues,
    backend: &str,
    referee: Option<&dyn Oracle>,
) -> OperatorJudgement {
    let mut judge = LocalJudge::new(request, values, referee);
    let verdicts = judge.judge(backend, &|o| candidate_of(values, o));
    OperatorJudgement { verdicts, notes: judge.take_notes() }
}

/// The backend's value of local output `o`.
pub(super) fn candidate_of(values: &ObservedValues, o: &LocalOutput) -> Option<TensorData> {
    match o.member {
        Some(k) => values.member(o.node, k),
        None => values.value(o.value),
    }
    .cloned()
}

/// The graph's operators cut free and run by the in-tree executor on one
/// backend's operand values, ready to judge that backend's results (and
/// other candidates computed from the same operand values).
pub(super) struct LocalJudge<'a> {
    /// The graph's operators, in graph order.
    operators: Vec<LocalOperator>,
    /// Operators not in the local form, and why.
    left_out: BTreeMap<Id, (UnjudgedReason, String)>,
    /// The local form, its request and the in-tree executor's outputs on it.
    local: Option<(LocalForm, OwnedExecRequest, Vec<TensorData>)>,
    /// Why nothing could be judged, when nothing can.
    failed: Option<(UnjudgedReason, String)>,
    /// The local form's request's subnormal-flushed run (no referee).
    vote: Vote<'a>,
    /// The original module and entry point, to cut smaller forms for the referee.
    module: Option<Module>,
    entry: Option<String>,
    /// The referee.
    referee: Option<&'a dyn Oracle>,
    /// Forms of some operators only, each with its referee vote: the
    /// referee sees only the operators a direct comparison cannot settle,
    /// those with floating-point results apart from the others (asked for
    /// bounds tensors, the reference model aborts on an integer dot product).
    referee_forms: Vec<RefereeForm<'a>>,
}

/// A form of some operators, for the referee.
struct RefereeForm<'a> {
    /// The operators in it.
    nodes: BTreeSet<Id>,
    form: LocalForm,
    request: OwnedExecRequest,
    vote: Vote<'a>,
}

/// A verdict of the referee on one output: the candidate's and the in-tree executor's.
type RefereeVerdicts = (Option<Result<OutputVerdict, String>>, Option<Result<OutputVerdict, String>>);

impl<'a> LocalJudge<'a> {
    /// Cuts `request`'s graph into its operators, feeds them `values`, and
    /// runs them on the in-tree executor.
    pub(super) fn new(request: &ExecRequest<'_>, values: &ObservedValues, referee: Option<&'a dyn Oracle>) -> Self {
        let mut judge = LocalJudge {
            operators: Vec::new(),
            left_out: BTreeMap::new(),
            local: None,
            failed: None,
            vote: Vote::new(None),
            module: None,
            entry: request.entry_point.map(str::to_string),
            referee,
            referee_forms: Vec::new(),
        };
        let module = match Module::decode_words(request.module) {
            Ok(m) => m,
            Err(e) => {
                judge.failed = Some((UnjudgedReason::LocalFormFailed, format!("the module does not decode: {e}")));
                return judge;
            }
        };
        match operators(&module, request.entry_point) {
            Ok(ops) => judge.operators = ops,
            Err(e) => {
                judge.failed = Some((UnjudgedReason::LocalFormFailed, e.to_string()));
                return judge;
            }
        }
        for o in &judge.operators {
            let shown = match o.members {
                Some(n) => (0..n).all(|k| values.member(o.node, k).is_some()),
                None => values.value(o.node).is_some(),
            };
            if !shown {
                let why = format!("the observed form does not show the result of {} {}", o.op, o.node);
                judge.left_out.insert(o.node, (UnjudgedReason::NotObserved, why));
            } else if let Some(v) = o.operands.iter().find(|v| values.value(**v).is_none()) {
                let why = format!("the observed form does not show operand {v} of {} {}", o.op, o.node);
                judge.left_out.insert(o.node, (UnjudgedReason::OperandNotObserved, why));
            }
        }
        // Operators whose REQUIREs fail on the backend's values are left out
        // one at a time, as the executor finds them.
        for _ in 0..=judge.operators.len() {
            let leave: BTreeSet<Id> = judge.left_out.keys().copied().collect();
            let form = match local_form(&module, request.entry_point, &leave) {
                Ok(f) => f,
                Err(ObserveError::NoOperators) => return judge,
                Err(e) => {
                    judge.failed = Some((UnjudgedReason::LocalFormFailed, e.to_string()));
                    return judge;
                }
            };
            let mut inputs = request.inputs.to_vec();
            inputs.extend(form.operands.iter().filter_map(|v| values.value(*v).cloned()));
            match Executor::default().run(&form.module, Some(&form.entry), &inputs, request.graph_constants) {
                Ok(reference) => {
                    let words = match form.module.encode_words() {
                        Ok(w) => w,
                        Err(e) => {
                            judge.failed = Some((UnjudgedReason::LocalFormFailed, e.to_string()));
                            return judge;
                        }
                    };
                    let owned = OwnedExecRequest {
                        module: words,
                        entry_point: Some(form.entry.clone()),
                        inputs,
                        graph_constants: request.graph_constants.clone(),
                    };
                    judge.local = Some((form, owned, reference));
                    judge.module = Some(module);
                    return judge;
                }
                Err(e) => {
                    let unpredictable = match &e {
                        ExecError::Unpredictable { result, .. }
                            if judge.operators.iter().any(|o| o.node == *result) =>
                        {
                            Some(*result)
                        }
                        _ => None,
                    };
                    match unpredictable {
                        Some(node) => {
                            judge.left_out.insert(node, (UnjudgedReason::OperatorUnpredictable, e.to_string()));
                        }
                        None => {
                            judge.failed = Some((UnjudgedReason::LocalFormFailed, e.to_string()));
                            return judge;
                        }
                    }
                }
            }
        }
        judge.failed = Some((UnjudgedReason::LocalFormFailed, "no operator could be run on its own".into()));
        judge
    }

    /// The `checker-disagrees-with-reference` notes found so far (taken once).
    pub(super) fn take_notes(&mut self) -> Vec<Disagreement> {
        let mut notes = self.vote.take_notes();
        for f in &mut self.referee_forms {
            notes.extend(f.vote.take_notes());
        }
        notes
    }

    /// The referee's verdicts on outputs `needed` of the local form (its
    /// output indices), for `candidates` (one per output, `None`: none) and
    /// the in-tree executor's results; `None` when there is no referee or
    /// it could not run.
    fn referee_verdicts(
        &mut self,
        local: &(LocalForm, OwnedExecRequest, Vec<TensorData>),
        backend: &str,
        needed: &[usize],
        candidates: &[Option<TensorData>],
    ) -> Option<BTreeMap<usize, RefereeVerdicts>> {
        let referee = self.referee?;
        let (full, owned, reference) = local;
        let module = self.module.as_ref()?;
        let first_operand = owned.inputs.len() - full.operands.len();
        let operand_value =
            |v: &Id| full.operands.iter().position(|x| x == v).and_then(|k| owned.inputs.get(first_operand + k));
        let mut groups: BTreeMap<bool, BTreeSet<Id>> = BTreeMap::new();
        for &j in needed {
            let (Some(o), Some(r)) = (full.outputs.get(j), reference.get(j)) else { continue };
            groups.entry(r.elem().is_float()).or_default().insert(o.node);
        }
        let mut out = BTreeMap::new();
        let mut any = false;
        for nodes in groups.into_values() {
            let at = match self.referee_forms.iter().position(|f| nodes.is_subset(&f.nodes)) {
                Some(at) => at,
                None => {
                    let leave: BTreeSet<Id> =
                        self.operators.iter().map(|o| o.node).filter(|n| !nodes.contains(n)).collect();
                    let Ok(form) = local_form(module, self.entry.as_deref(), &leave) else { continue };
                    let mut inputs: Vec<TensorData> = owned.inputs[..first_operand].to_vec();
                    let Some(operands) =
                        form.operands.iter().map(|v| operand_value(v).cloned()).collect::<Option<Vec<_>>>()
                    else {
                        continue;
                    };
                    inputs.extend(operands);
                    let Ok(words) = form.module.encode_words() else { continue };
                    let request = OwnedExecRequest {
                        module: words,
                        entry_point: Some(form.entry.clone()),
                        inputs,
                        graph_constants: owned.graph_constants.clone(),
                    };
                    self.referee_forms.push(RefereeForm {
                        nodes: nodes.clone(),
                        form,
                        request,
                        vote: Vote::new(Some(referee)),
                    });
                    self.referee_forms.len() - 1
                }
            };
            let f = &mut self.referee_forms[at];
            // Where each output of the referee's form is in the local form.
            let index: Vec<Option<usize>> = f
                .form
                .outputs
                .iter()
                .map(|o| full.outputs.iter().position(|x| x.node == o.node && x.member == o.member))
                .collect();
            let pick = |from: &dyn Fn(usize) -> Option<TensorData>| -> Option<Vec<TensorData>> {
                index.iter().map(|j| j.and_then(from)).collect()
            };
            let in_tree = |j: usize| reference.get(j).cloned();
            let theirs_or_ours = |j: usize| candidates.get(j).cloned().flatten().or_else(|| reference.get(j).cloned());
            let (Some(theirs), Some(ours)) = (pick(&theirs_or_ours), pick(&in_tree)) else { continue };
            let theirs = ExecOutcome::Outputs(theirs);
            let ours = ExecOutcome::Outputs(ours);
            let request = f.request.request();
            let Some(v) = f.vote.verdicts_each(&request, &[(backend, &theirs), (crate::registry::IN_TREE, &ours)])
            else {
                continue;
            };
            any = true;
            let verdict = |k: usize, sub: usize| -> Option<Result<OutputVerdict, String>> {
                match v.get(k)? {
                    Ok(Judged::Outputs(o)) => o.get(sub).cloned().map(Ok),
                    Ok(Judged::Settled(a)) => Some(Err(format!("{a:?}"))),
                    Err(e) => Some(Err(e.to_string())),
                }
            };
            for (sub, j) in index.iter().enumerate() {
                if let Some(j) = j {
                    out.insert(*j, (verdict(0, sub), verdict(1, sub)));
                }
            }
        }
        any.then_some(out)
    }

    /// Whether any operand value of operator `node` read from outside the
    /// operator, as the local form feeds it, satisfies `holds` (the
    /// subnormal-input and non-finite-value features of its operands).
    pub(super) fn reads(&self, node: Id, holds: fn(&TensorData) -> bool) -> bool {
        let Some((form, owned, _)) = &self.local else { return false };
        let Some(op) = self.operators.iter().find(|o| o.node == node) else { return false };
        let first = owned.inputs.len() - form.operands.len();
        op.operands.iter().any(|v| {
            form.operands.iter().position(|x| x == v).and_then(|k| owned.inputs.get(first + k)).is_some_and(holds)
        })
    }

    /// Whether `holds` says so of the original module and operator `node`
    /// (a feature of where the operator's result goes).
    pub(super) fn about(&self, node: Id, holds: fn(&Module, Id) -> bool) -> bool {
        self.module.as_ref().is_some_and(|m| holds(m, node))
    }

    /// Judges the candidates `candidate` gives for each operator result (a
    /// backend's values, or another run's computed from the same operands),
    /// `backend` naming whose they are. Operators `candidate` has nothing
    /// for are unjudged ([`UnjudgedReason::NotObserved`]).
    pub(super) fn judge(
        &mut self,
        backend: &str,
        candidate: &dyn Fn(&LocalOutput) -> Option<TensorData>,
    ) -> Vec<OperatorVerdict> {
        if let Some((reason, detail)) = &self.failed {
            return self
                .operators
                .iter()
                .enumerate()
                .map(|(order, o)| OperatorVerdict {
                    node: o.node,
                    op: o.op,
                    order,
                    outcome: OperatorOutcome::Unjudged { reason: *reason, detail: detail.clone() },
                })
                .collect();
        }
        let per_output = match &self.local {
            Some(_) => self.judge_outputs(backend, candidate),
            None => Vec::new(),
        };
        let outputs: Vec<LocalOutput> = self.local.as_ref().map(|(f, _, _)| f.outputs.clone()).unwrap_or_default();
        let total = self.operators.len();
        self.operators
            .iter()
            .enumerate()
            .map(|(order, o)| {
                let outcome = match self.left_out.get(&o.node) {
                    Some((reason, detail)) => OperatorOutcome::Unjudged { reason: *reason, detail: detail.clone() },
                    None => {
                        let mine: Vec<&OperatorOutcome> =
                            outputs.iter().zip(&per_output).filter(|(x, _)| x.node == o.node).map(|(_, v)| v).collect();
                        let wrong = mine.iter().find(|v| matches!(v, OperatorOutcome::Wrong { .. }));
                        let unjudged = mine.iter().find(|v| matches!(v, OperatorOutcome::Unjudged { .. }));
                        match (wrong, unjudged, mine.is_empty()) {
                            (Some(OperatorOutcome::Wrong { oracles, detail }), _, _) => OperatorOutcome::Wrong {
                                oracles: oracles.clone(),
                                detail: format!(
                                    "{} {} (operator {} of {total} in graph order), judged on its own from {backend}'s \
                                     values of its operands: {detail}",
                                    o.op,
                                    o.node,
                                    order + 1
                                ),
                            },
                            (_, Some(u), _) => (*u).clone(),
                            (_, _, true) => OperatorOutcome::Unjudged {
                                reason: UnjudgedReason::LocalFormFailed,
                                detail: "not an output of the local form".into(),
                            },
                            _ => OperatorOutcome::Compliant,
                        }
                    }
                };
                OperatorVerdict { node: o.node, op: o.op, order, outcome }
            })
            .collect()
    }

    /// One outcome per output of the local form.
    fn judge_outputs(
        &mut self,
        backend: &str,
        candidate: &dyn Fn(&LocalOutput) -> Option<TensorData>,
    ) -> Vec<OperatorOutcome> {
        let Some(local) = self.local.take() else { return Vec::new() };
        let outcomes = self.judge_local(&local, backend, candidate);
        self.local = Some(local);
        outcomes
    }

    fn judge_local(
        &mut self,
        local: &(LocalForm, OwnedExecRequest, Vec<TensorData>),
        backend: &str,
        candidate: &dyn Fn(&LocalOutput) -> Option<TensorData>,
    ) -> Vec<OperatorOutcome> {
        let (form, owned, reference) = local;
        let request = owned.request();
        let contexts: Vec<Option<OpContext>> =
            output_contexts(&form.module, request.entry_point, request.inputs, request.graph_constants)
                .unwrap_or_default();
        let candidates: Vec<Option<TensorData>> = form.outputs.iter().map(candidate).collect();
        // Direct comparisons with the in-tree executor's result (or its
        // result with subnormal operands flushed).
        let mut direct: Vec<Option<Direct>> = candidates
            .iter()
            .zip(reference)
            .enumerate()
            .map(|(j, (c, r))| c.as_ref().map(|c| compare_direct(contexts.get(j).and_then(Option::as_ref), r, c)))
            .collect();
        if direct.iter().any(|d| matches!(d, Some(Direct::Differ(_) | Direct::Incomparable(_)))) {
            if let Some(flushed) = self.vote.flushed_in_tree(&request).cloned() {
                for (j, d) in direct.iter_mut().enumerate() {
                    let (Some(c), Some(f)) = (candidates[j].as_ref(), flushed.get(j)) else { continue };
                    if matches!(d, Some(Direct::Differ(_) | Direct::Incomparable(_)))
                        && compare_direct(contexts.get(j).and_then(Option::as_ref), f, c) == Direct::Agree
                    {
                        *d = Some(Direct::Agree);
                    }
                }
            }
        }
        // A computed operand the backend may have used unrounded (TOSA's
        // operator sequence precision requirement).
        if let Some(module) = self.module.as_ref() {
            let setting = super::operand_precision::Setting {
                module,
                entry: self.entry.as_deref(),
                operators: &self.operators,
                local,
            };
            for (j, d) in direct.iter_mut().enumerate() {
                let Some(c) = candidates[j].as_ref() else { continue };
                if matches!(d, Some(Direct::Differ(_)))
                    && super::operand_precision::within_operand_precision(
                        &setting,
                        j,
                        c,
                        contexts.get(j).and_then(Option::as_ref),
                    )
                {
                    *d = Some(Direct::Agree);
                }
            }
        }
        let needed: Vec<usize> = direct
            .iter()
            .enumerate()
            .filter(|(_, d)| matches!(d, Some(Direct::Differ(_) | Direct::Incomparable(_))))
            .map(|(j, _)| j)
            .collect();
        let in_tree = crate::registry::IN_TREE;
        let referee = self.referee.map_or("no referee", |r| r.name()).to_string();
        let verdicts =
            if needed.is_empty() { None } else { self.referee_verdicts(local, backend, &needed, &candidates) };
        let text = |v: &Option<Result<OutputVerdict, String>>| match v {
            Some(Ok(o)) => match &o.verdict {
                Ok(r) if r.pass => "compliant".to_string(),
                Ok(r) => format!("not compliant: {r}"),
                Err(e) => format!("not comparable: {e}"),
            },
            Some(Err(e)) => format!("not judged: {e}"),
            None => "not judged".to_string(),
        };
        direct
            .iter()
            .enumerate()
            .map(|(j, d)| {
                let d = match d {
                    None => {
                        return OperatorOutcome::Unjudged {
                            reason: UnjudgedReason::NotObserved,
                            detail: "no value for this result".into(),
                        }
                    }
                    Some(Direct::Agree) => return OperatorOutcome::Compliant,
                    Some(Direct::Mismatch(detail)) => {
                        return OperatorOutcome::Wrong { oracles: vec![backend.to_string()], detail: detail.clone() }
                    }
                    Some(d) => d,
                };
                let direct_text = match d {
                    Direct::Differ(t) => t.clone(),
                    Direct::Incomparable(why) => format!("not comparable directly ({why})"),
                    Direct::Agree | Direct::Mismatch(_) => String::new(),
                };
                let (theirs, ours) = verdicts.as_ref().and_then(|v| v.get(&j)).cloned().unwrap_or((None, None));
                let passed = |v: &Option<Result<OutputVerdict, String>>| matches!(v, Some(Ok(o)) if o.passed());
                let failed = |v: &Option<Result<OutputVerdict, String>>| matches!(v, Some(Ok(o)) if o.failed());
                let all_three = format!(
                    "{backend}: {}; in-tree: {}; direct comparison: {direct_text} (referee: {referee})",
                    text(&theirs),
                    text(&ours)
                );
                let differ = matches!(d, Direct::Differ(_));
                match (failed(&theirs), failed(&ours)) {
                    (true, false) if passed(&ours) => {
                        OperatorOutcome::Wrong { oracles: vec![backend.to_string()], detail: all_three }
                    }
                    (false, true) if passed(&theirs) => {
                        OperatorOutcome::Wrong { oracles: vec![in_tree.to_string()], detail: all_three }
                    }
                    (true, true) if differ => OperatorOutcome::Wrong {
                        oracles: vec![backend.to_string(), in_tree.to_string()],
                        detail: all_three,
                    },
                    (true, true) => OperatorOutcome::Unjudged {
                        reason: UnjudgedReason::Incomparable,
                        detail: format!("the referee condemns both results: {all_three}"),
                    },
                    _ if passed(&theirs) => OperatorOutcome::Compliant,
                    // No verdict from the referee: a direct difference
                    // still shows that one of the two is wrong.
                    _ if verdicts.is_none() && differ => OperatorOutcome::Wrong {
                        oracles: vec![backend.to_string(), in_tree.to_string()],
                        detail: format!(
                            "{backend} and the in-tree executor differ ({direct_text}); no referee could run ({referee})"
                        ),
                    },
                    _ if verdicts.is_none() => OperatorOutcome::Unjudged {
                        reason: UnjudgedReason::NoReferee,
                        detail: format!("{direct_text}; no referee could run ({referee})"),
                    },
                    _ => OperatorOutcome::Unjudged { reason: UnjudgedReason::Incomparable, detail: all_three },
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{Abnormal, Refusal};

    /// `ALL` is derived from the declaration: it must still be the list
    /// that was written by hand, in the same order.
    #[test]
    fn all_unjudged_reasons_are_the_hand_written_list() {
        let hand_written = [
            UnjudgedReason::BackendUnsupported,
            UnjudgedReason::BackendRefused,
            UnjudgedReason::BackendOverBudget,
            UnjudgedReason::BackendUnpredictable,
            UnjudgedReason::BackendAbnormal,
            UnjudgedReason::BackendError,
            UnjudgedReason::Unpredictable,
            UnjudgedReason::ReferenceOverBudget,
            UnjudgedReason::ReferenceRefused,
            UnjudgedReason::ObservedFormUnavailable,
            UnjudgedReason::ObservedFormNotRun,
            UnjudgedReason::NotObserved,
            UnjudgedReason::InexactUpstream,
            UnjudgedReason::OperandNotObserved,
            UnjudgedReason::OperatorUnpredictable,
            UnjudgedReason::LocalFormFailed,
            UnjudgedReason::NoReferee,
            UnjudgedReason::Incomparable,
        ];
        assert_eq!(UnjudgedReason::ALL, hand_written);
    }

    #[test]
    fn a_case_not_run_is_named_by_the_first_words_of_why() {
        let refused = Ok(ExecOutcome::Refused {
            kind: Refusal::Unsupported,
            reason: "iree-compile: fp8 is not supported on llvm-cpu: tosa.cast: 'arith.extf' at line 12".into(),
        });
        assert_eq!(
            why_not_run(&refused).as_deref(),
            Some("backend-unsupported: iree-compile: fp8 is not supported on llvm-cpu")
        );
        let crashed = Ok(ExecOutcome::Abnormal { how: Abnormal::Signal(11), detail: String::new() });
        assert_eq!(why_not_run(&crashed).as_deref(), Some("backend-abnormal: killed by signal 11 (SIGSEGV)"));
        assert_eq!(why_not_run(&Ok(ExecOutcome::Outputs(Vec::new()))), None);
    }
}

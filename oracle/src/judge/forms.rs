//! Judging a backend's runs of a case in equivalent forms
//! ([`crate::forms`]).
//!
//! * A form that keeps the operator sequence must give the same results as
//!   the case as given. Integer and bool outputs must have the same bits.
//!   A floating-point output whose bits differ (every NaN counting as
//!   equal) is a finding only when one of the two results meets the
//!   output's accuracy rule and the other does not: a compiler may fold a
//!   constant operator at build time with other rounding than at run time
//!   and stay within the rule, so two compliant results are no evidence.
//!   The rule is judged as the backends' outputs are: against the in-tree
//!   executor (or its run with subnormal inputs flushed), and where that
//!   needs error bounds, against the referee's precise run. Outputs with an
//!   operator with an error bound upstream (a dot product, EXP, ...) are not
//!   judged between forms: whether each is within its rule needs the
//!   operator-level judgement, which judges them on their own operands.
//!   A difference is a `form-differs` naming the two forms.
//! * A form that changes the operator sequence (a split graph, identity
//!   operators) has its outputs judged as the case's own outputs are
//!   (integers exactly, floating point under the accuracy rules against the
//!   in-tree executor and the referee), so a wrong output in it is a
//!   `wrong-output` that names the form.
//! * A form the backend refuses or dies on, where it ran the case as given,
//!   is judged as a case of its own (its module's features decide which
//!   documented discrepancy explains it).
//! * A rescue (the case in a form without constructs backends are known to
//!   refuse, run because the backend refused the case as given) has its
//!   outputs judged as the case's own; its refusal counts once, as the
//!   case's.
//! * The in-tree executor must give the same bits for every form (a
//!   difference is a bug of the rewrite or of the executor).

use super::execution::{self, Vote};
use super::{document, Disagreement, ExecAnswer, Expectation, Kind, Observations};
use crate::compliance::{inexact_upstream, output_contexts};
use crate::features::{self, FeatureSet};
use crate::forms::Rewritten;
use crate::oracle::{ExecOutcome, Oracle, OracleError};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;

/// The name the case as given has in a pair of forms.
pub const AS_GIVEN: &str = "as-given";

/// A backend's run of the case in another form.
pub struct FormAnswer<'a> {
    /// The backend.
    pub oracle: &'a dyn Oracle,
    /// The form.
    pub form: &'a Rewritten,
    /// The outcome: the case's outputs in the case's order, or the refusal
    /// or end of the first stage that did not give outputs.
    pub outcome: Result<ExecOutcome, OracleError>,
    /// The in-tree executor's outcome on the form.
    pub reference: Option<ExecOutcome>,
    /// Whether it rescues the case (the backend refused or died on it as given).
    pub rescue: bool,
}

/// Every disagreement among the form answers of `observations`.
pub(super) fn judge(
    expectation: &Expectation,
    observations: &Observations<'_>,
    vote: &mut Vote<'_>,
) -> Vec<Disagreement> {
    let (Expectation::Valid, Some(request)) = (expectation, &observations.request) else { return Vec::new() };
    if observations.forms.is_empty() {
        return Vec::new();
    }
    let plain_features = observations.features();
    let module = Module::decode_words(request.module).ok();
    let inexact = module.as_ref().and_then(|m| inexact_upstream(m, request.entry_point).ok()).unwrap_or_default();
    let contexts = module
        .as_ref()
        .and_then(|m| output_contexts(m, request.entry_point, request.inputs, request.graph_constants).ok());
    let op_of = |j: usize| contexts.as_ref().and_then(|c| c.get(j)).and_then(Option::as_ref).map(|c| c.op);
    let in_tree = match &observations.reference {
        Some(ExecOutcome::Outputs(r)) => Some(r.clone()),
        _ => None,
    };
    let mut out = Vec::new();
    let mut self_checked: Vec<String> = Vec::new();
    for fa in &observations.forms {
        let label = fa.form.label();
        let form_features = form_features(fa.form);
        // The in-tree executor, once per form.
        if let (Some(r), Some(ExecOutcome::Outputs(f))) = (&in_tree, &fa.reference) {
            if !self_checked.contains(&label) {
                self_checked.push(label.clone());
                if let Some((j, detail)) = first_bit_difference(r, f) {
                    let mut d = Disagreement::new(
                        Kind::FormDiffers,
                        crate::registry::IN_TREE,
                        format!("the in-tree executor computes other bits in the {label} form: {detail}"),
                    );
                    d.operators = op_of(j).into_iter().collect();
                    d.discriminator = Some(format!("{AS_GIVEN} vs {label}"));
                    d.message = Some("the in-tree executor's outputs differ between equivalent forms".into());
                    out.push(d);
                }
            }
        }
        let name = fa.oracle.name();
        let plain = observations.executions.iter().find(|a| a.oracle.name() == name).map(|a| &a.outcome);
        let plain_outputs = match plain {
            Some(Ok(ExecOutcome::Outputs(o))) => Some(o),
            _ => None,
        };
        // A rescue whose observed form ran is judged operator by operator
        // with it ([`super::execution`]), its outputs included.
        let rescue_observed = fa.rescue
            && observations.executions.iter().any(|a| {
                a.oracle.name() == name
                    && a.observed.as_ref().is_some_and(|o| {
                        o.rescue.is_some()
                            && matches!(o.outcome, Ok(ExecOutcome::Outputs(ref v)) if v.len() == o.form.outputs.len())
                    })
            });
        let mut found = match (&fa.outcome, plain_outputs) {
            (Ok(ExecOutcome::Outputs(_)), None) if rescue_observed => Vec::new(),
            // A rescue, or a form that ran where the case as given did not:
            // its outputs are judged as the case's own.
            (Ok(ExecOutcome::Outputs(outputs)), None) => as_case_outputs(expectation, observations, fa, outputs, vote),
            (Ok(ExecOutcome::Outputs(outputs)), Some(_)) if fa.rescue || !fa.form.keeps_operators() => {
                as_case_outputs(expectation, observations, fa, outputs, vote)
            }
            (Ok(ExecOutcome::Outputs(outputs)), Some(plain)) => {
                let cx = Compared { request, in_tree: in_tree.as_deref(), inexact: &inexact, op_of: &op_of };
                compare_forms(&cx, vote, name, plain, outputs, &label).into_iter().collect()
            }
            // Refused or died in this form where it ran the case as given.
            (_, Some(_)) if !fa.rescue => on_its_own(expectation, observations, fa),
            // Refused both ways: the case's own refusal is judged (once).
            _ => Vec::new(),
        };
        for d in &mut found {
            let features: FeatureSet = match d.kind {
                // Either module may hold what triggers a documented bug.
                Kind::FormDiffers => plain_features.iter().chain(&form_features).copied().collect(),
                _ => form_features.clone(),
            };
            document_form(d, expectation, observations, &features);
        }
        out.extend(found);
    }
    out
}

/// The features of every stage of a form.
fn form_features(form: &Rewritten) -> FeatureSet {
    form.stages.iter().flat_map(|s| features::detect_words(&s.request.module, Some(&s.request.request()))).collect()
}

/// Documents `d` as [`document`] does; a `form-differs` is also an
/// instance of a documented wrong output (one of the two forms is wrong).
fn document_form(
    d: &mut Disagreement,
    expectation: &Expectation,
    observations: &Observations<'_>,
    features: &FeatureSet,
) {
    document(d, expectation, observations, features);
    if d.documented.is_none() && d.kind == Kind::FormDiffers {
        let mut as_wrong = d.clone();
        as_wrong.kind = Kind::WrongOutput;
        document(&mut as_wrong, expectation, observations, features);
        d.documented = as_wrong.documented;
    }
}

/// The first output whose bits differ, and how.
fn first_bit_difference(a: &[TensorData], b: &[TensorData]) -> Option<(usize, String)> {
    if a.len() != b.len() {
        return Some((a.len().min(b.len()), format!("{} outputs where there were {}", b.len(), a.len())));
    }
    a.iter()
        .zip(b)
        .enumerate()
        .find_map(|(j, (x, y))| element_difference(x, y, false).map(|d| (j, format!("output {j}: {d}"))))
}

/// How `b` differs from `a` element by element (`None`: the same; with
/// `nan_equal`, any two NaNs count as the same).
fn element_difference(a: &TensorData, b: &TensorData, nan_equal: bool) -> Option<String> {
    if a.elem() != b.elem() || a.shape() != b.shape() {
        return Some(format!("{} {:?} where {} {:?} was given", b.elem(), b.shape(), a.elem(), a.shape()));
    }
    let (x, y) = (a.to_bits(), b.to_bits());
    let fx = a.to_f64();
    let fy = b.to_f64();
    let float = a.elem().is_float();
    let differs = |i: usize| x[i] != y[i] && !(nan_equal && float && fx[i].is_nan() && fy[i].is_nan());
    let diff: Vec<usize> = (0..x.len()).filter(|&i| differs(i)).collect();
    let &first = diff.first()?;
    Some(format!(
        "{} of {} elements differ; first at element {first}: {:#x} ({}) and {:#x} ({})",
        diff.len(),
        x.len(),
        x[first],
        fx[first],
        y[first],
        fy[first]
    ))
}

/// What [`compare_forms`] needs of the case.
struct Compared<'c, 'r> {
    request: &'c crate::oracle::ExecRequest<'r>,
    in_tree: Option<&'c [TensorData]>,
    inexact: &'c [bool],
    op_of: &'c dyn Fn(usize) -> Option<spvgraph_ir::tosa::TosaOp>,
}

/// Whether output `j` = `value` meets its accuracy rule: `Some(true)` or
/// `Some(false)` when that can be told, `None` when not.
fn compliant(cx: &Compared<'_, '_>, vote: &mut Vote<'_>, name: &str, j: usize, value: &TensorData) -> Option<bool> {
    let in_tree = cx.in_tree?;
    let with = |base: &[TensorData]| -> Vec<TensorData> {
        let mut c = base.to_vec();
        if let Some(slot) = c.get_mut(j) {
            *slot = value.clone();
        }
        c
    };
    let direct = execution::compare_outputs(cx.request, in_tree, &with(in_tree));
    match direct {
        execution::OutputComparison::Agree => return Some(true),
        execution::OutputComparison::Differ { output, .. } if output == j => {
            // An implementation that flushes subnormal inputs may be right.
            if let Some(flushed) = vote.flushed_in_tree(cx.request).cloned() {
                if execution::compare_outputs(cx.request, &flushed, &with(&flushed))
                    == execution::OutputComparison::Agree
                {
                    return Some(true);
                }
            }
            return Some(false);
        }
        execution::OutputComparison::Differ { .. } => return None,
        execution::OutputComparison::Incomparable(_) => {}
    }
    // The rule needs bounds: the referee's precise run says.
    let answer = ExecOutcome::Outputs(with(in_tree));
    let verdicts = vote.verdicts(cx.request, &[(name, &answer)])?;
    match verdicts.first()? {
        Ok(crate::compliance::Agreement::Compliant(_)) => Some(true),
        Ok(crate::compliance::Agreement::Mismatch { output: Some(k), .. }) if *k == j => Some(false),
        _ => None,
    }
}

/// The first output on which the case as given and form `label` differ
/// as [`judge`] documents, as a `form-differs`.
fn compare_forms(
    cx: &Compared<'_, '_>,
    vote: &mut Vote<'_>,
    name: &str,
    plain: &[TensorData],
    form: &[TensorData],
    label: &str,
) -> Option<Disagreement> {
    let pair = format!("{AS_GIVEN} vs {label}");
    let make = |j: usize, detail: String| {
        let mut d = Disagreement::new(
            Kind::FormDiffers,
            name,
            format!("{name} gives other results for the case in the {label} form, which computes the same: {detail}"),
        );
        d.operators = (cx.op_of)(j).into_iter().collect();
        d.discriminator = Some(pair.clone());
        d.message = Some("outputs differ between equivalent forms".into());
        d
    };
    if plain.len() != form.len() {
        return Some(make(0, format!("{} outputs in the {label} form, {} as given", form.len(), plain.len())));
    }
    for (j, (p, f)) in plain.iter().zip(form).enumerate() {
        let Some(diff) = element_difference(p, f, true) else { continue };
        if !p.elem().is_float() || p.shape() != f.shape() || p.elem() != f.elem() {
            return Some(make(j, format!("output {j}: {diff}")));
        }
        if cx.inexact.get(j).copied().unwrap_or(false) {
            continue;
        }
        let (a, b) = (compliant(cx, vote, name, j, p), compliant(cx, vote, name, j, f));
        let which = match (a, b) {
            (Some(true), Some(false)) => {
                format!("the {label} form's result breaks the accuracy rule, the case's meets it")
            }
            (Some(false), Some(true)) => {
                format!("the case's result breaks the accuracy rule, the {label} form's meets it")
            }
            _ => continue,
        };
        return Some(make(j, format!("output {j}: {diff}; {which}")));
    }
    None
}

/// A form's outputs judged as the case's own outputs would be (against the
/// in-tree executor, with the referee's vote).
fn as_case_outputs(
    expectation: &Expectation,
    observations: &Observations<'_>,
    fa: &FormAnswer<'_>,
    outputs: &[TensorData],
    vote: &mut Vote<'_>,
) -> Vec<Disagreement> {
    let sub = Observations {
        request: observations.request,
        reference: observations.reference.clone(),
        executions: vec![ExecAnswer {
            oracle: fa.oracle,
            outcome: Ok(ExecOutcome::Outputs(outputs.to_vec())),
            observed: None,
        }],
        referee: observations.referee,
        operators: observations.operators.clone(),
        strict_consumers: observations.strict_consumers,
        ..Observations::default()
    };
    let what = if fa.rescue { "rescued in" } else { "run in" };
    let (mut found, _) = execution::judge(expectation, &sub, vote);
    for d in &mut found {
        d.detail = format!("(the case {what} the {} form) {}", fa.form.label(), d.detail);
    }
    found
}

/// A form's refusal or end judged as a case of its own (its request, its
/// in-tree reference, a vote of its own).
fn on_its_own(expectation: &Expectation, observations: &Observations<'_>, fa: &FormAnswer<'_>) -> Vec<Disagreement> {
    let Some(first) = fa.form.stages.first() else { return Vec::new() };
    let sub = Observations {
        request: Some(first.request.request()),
        reference: fa.reference.clone(),
        executions: vec![ExecAnswer { oracle: fa.oracle, outcome: fa.outcome.clone(), observed: None }],
        referee: observations.referee,
        operators: observations.operators.clone(),
        strict_consumers: observations.strict_consumers,
        ..Observations::default()
    };
    let mut vote = Vote::new(observations.referee);
    let (mut found, _) = execution::judge(expectation, &sub, &mut vote);
    for d in &mut found {
        d.detail = format!("(the case in the {} form, which it runs as given) {}", fa.form.label(), d.detail);
    }
    found
}

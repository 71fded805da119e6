//! Judging what a producer made of the case's TOSA MLIR.

use super::execution::{compare_outputs, unjudged_taken_from, OutputComparison, Vote};
use super::validity::describe;
use super::{Disagreement, Kind, Observations, ProductionAnswer, ValidityAnswer};
use crate::compliance::Agreement;
use crate::exec::Executor;
use crate::oracle::{ExecOutcome, ExecRequest, Oracle, OracleError, ProduceOutcome, ValidateOptions, Verdict};
use crate::produced::ProducedRun;

/// The disagreements of one production.
pub(super) fn judge(
    p: &ProductionAnswer<'_>,
    observations: &Observations<'_>,
    vote: &mut Vote<'_>,
) -> Vec<Disagreement> {
    let name = p.producer.name();
    let variant = p.debug_info.then(|| "with debug info".to_string());
    let ops = observations.operators.clone();
    let new = |kind: Kind, detail: String| {
        let mut d = Disagreement::new(kind, name, detail).with_operators(ops.clone());
        d.discriminator = variant.clone();
        d
    };
    let outcome = match &p.outcome {
        Ok(o) => o,
        Err(OracleError::Unavailable { .. } | OracleError::Unsupported { .. }) => return Vec::new(),
        Err(e) => return vec![new(Kind::OracleError, e.to_string()).with_message(Some(e.to_string()))],
    };
    match outcome {
        ProduceOutcome::Abnormal { how, detail } => {
            let mut d = new(Kind::ProducerCrash, format!("{name} {how}: {detail}"));
            d.discriminator = Some(match &variant {
                Some(v) => format!("{how}, {v}"),
                None => how.to_string(),
            });
            vec![d.with_message(detail.lines().map(str::trim).rev().find(|l| !l.is_empty()).map(str::to_string))]
        }
        ProduceOutcome::Rejected { message } => {
            vec![new(Kind::ProducerRejects, format!("{name} refuses valid TOSA: {message}"))
                .with_message(Some(message.clone()))]
        }
        ProduceOutcome::Module { .. } => {
            let mut out = Vec::new();
            for v in &p.validity {
                if let Ok(Verdict::Invalid(ds)) = &v.verdict {
                    let first = ds.first();
                    let mut d = new(
                        Kind::ProducerInvalidOutput,
                        format!("{name} emits a module that {} rejects: {}", v.oracle.name(), describe(ds)),
                    )
                    .with_rule(first.and_then(|d| d.rule))
                    .with_message(first.map(|d| d.message.clone()));
                    d.oracles.push(v.oracle.name().to_string());
                    if let Some(op) = first.and_then(|d| d.operator) {
                        d.operators = vec![op];
                    }
                    out.push(d);
                }
            }
            if let Some(d) = semantics(p, observations, vote, &new) {
                out.push(d);
            }
            out
        }
    }
}

/// The produced module's outputs against the case's own.
fn semantics(
    p: &ProductionAnswer<'_>,
    observations: &Observations<'_>,
    vote: &mut Vote<'_>,
    new: &dyn Fn(Kind, String) -> Disagreement,
) -> Option<Disagreement> {
    let name = p.producer.name();
    let request = observations.request.as_ref()?;
    let Some(ExecOutcome::Outputs(reference)) = &observations.reference else { return None };
    let produced = match p.outputs.as_ref()? {
        Ok(ExecOutcome::Outputs(o)) => o,
        Ok(ExecOutcome::Refused { kind, reason }) => {
            return Some(new(
                Kind::ProducerWrongSemantics,
                format!("the in-tree executor refuses the module {name} produced ({kind:?}): {reason}"),
            ))
        }
        Ok(ExecOutcome::Abnormal { .. }) | Err(_) => return None,
    };
    let (produced, inexact) = unjudged_taken_from(request, reference, produced);
    let direct = compare_outputs(request, reference, &produced);
    if direct == OutputComparison::Agree {
        return None;
    }
    // Constant folding by the producer may round differently: the referee
    // decides whether the produced module's outputs are still compliant.
    // Its precise run does not round intermediate results, so downstream of
    // any floating-point operator it can condemn the case's own outputs
    // too: then only a direct difference is evidence (as for backends).
    let theirs = ExecOutcome::Outputs(produced);
    let ours = ExecOutcome::Outputs(reference.clone());
    let verdicts = vote.verdicts(request, &[(name, &theirs), (crate::registry::IN_TREE, &ours)]);
    let condemned = |a: &Result<Agreement, OracleError>| matches!(a, Ok(Agreement::Mismatch { output, .. }) if !output.is_some_and(|j| inexact.get(j) == Some(&true)));
    let verdict = verdicts.and_then(|v| {
        let ours_condemned = v.get(1).is_some_and(condemned);
        let direct_differs = matches!(direct, OutputComparison::Differ { .. });
        v.into_iter().next().filter(|theirs| !(condemned(theirs) && ours_condemned && !direct_differs))
    });
    match verdict {
        Some(Ok(Agreement::Mismatch { output, .. })) if output.is_some_and(|j| inexact.get(j) == Some(&true)) => None,
        Some(Ok(Agreement::Mismatch { output, detail })) => {
            let mut d = new(
                Kind::ProducerWrongSemantics,
                format!("the module {name} produced computes something else: {detail}"),
            );
            if let Some(j) = output {
                d.discriminator = Some(match &d.discriminator {
                    Some(v) => format!("output {j}, {v}"),
                    None => format!("output {j}"),
                });
            }
            Some(d)
        }
        Some(_) => None,
        None => match direct {
            OutputComparison::Differ { output, detail } => {
                let mut d = new(
                    Kind::ProducerWrongSemantics,
                    format!("the module {name} produced computes something else (no referee ran): {detail}"),
                );
                d.discriminator = Some(format!("output {output}"));
                Some(d)
            }
            _ => None,
        },
    }
}

/// What `producer` made of the case (`outcome`) checked the way every
/// production is: each validator's verdict on the produced module and,
/// when the first validator (the in-tree one) accepts it, its outputs on the
/// in-tree executor with the case's inputs mapped onto its interface and
/// its outputs mapped back. An invalid module is not run: that would only
/// repeat the finding as a refusal.
pub fn check_production<'a>(
    producer: &'a dyn Oracle,
    validators: &[&'a dyn Oracle],
    request: &ExecRequest<'_>,
    debug_info: bool,
    outcome: Result<ProduceOutcome, OracleError>,
) -> ProductionAnswer<'a> {
    let mut validity = Vec::new();
    let mut outputs = None;
    if let Ok(produced @ ProduceOutcome::Module { words, .. }) = &outcome {
        for v in validators {
            let verdict = v.validator().and_then(|x| x.validate(words, &ValidateOptions::default()));
            validity.push(ValidityAnswer { oracle: *v, verdict });
        }
        if matches!(validity.first(), Some(ValidityAnswer { verdict: Ok(Verdict::Valid), .. })) {
            outputs = Some(run_produced(request, produced));
        }
    }
    ProductionAnswer { producer, debug_info, outcome, validity, outputs }
}

/// The produced module on the in-tree executor, with the case's inputs
/// mapped onto its interface and its outputs mapped back.
fn run_produced(request: &ExecRequest<'_>, produced: &ProduceOutcome) -> Result<ExecOutcome, OracleError> {
    let failed = |reason: String| OracleError::Failed { oracle: "in-tree executor".to_string(), reason };
    let run = ProducedRun::new(request, produced).map_err(|e| failed(e.to_string()))?;
    match Executor::default().execute(&run.request())? {
        ExecOutcome::Outputs(out) => {
            run.case_outputs(&out).map(ExecOutcome::Outputs).map_err(|e| failed(e.to_string()))
        }
        other => Ok(other),
    }
}

//! The second phase of a case: a sampled backend runs a batch of cases at
//! once (its start-up cost is paid once per batch), and each case's answer
//! is judged against the in-tree executor's outputs, with the referee's
//! vote when they differ.

use super::case::{Answer, CaseOutcome, Pending};
use super::guard::guard;
use super::oracles::{OracleSet, Sampled};
use spvgraph_oracle::judge::{
    check_production, judge, judge_counted, ExecAnswer, Observations, ObservedAnswer, ProductionAnswer,
};
use spvgraph_oracle::oracle::{ExecOutcome, ExecRequest, Oracle, OracleError, ProduceRequest};
use std::time::{Duration, Instant};

/// The cases of one batch after the backend ran them, with the backend's
/// wall time for the whole batch.
pub struct BatchResult {
    /// Each case with the backend's answer and the new disagreements only.
    pub cases: Vec<CaseOutcome>,
    /// Wall time of the backend's run.
    pub elapsed: Duration,
}

/// Runs `pending` through the sampled executor `member` and judges each
/// case: each valid case's observed form runs in the same batch, and each
/// operator is judged on its own from the values it shows.
pub fn run_executor(member: &Sampled, oracles: &OracleSet, pending: Vec<Pending>) -> BatchResult {
    let name = member.oracle.name().to_string();
    let mut requests: Vec<ExecRequest<'_>> = pending.iter().map(|p| p.request.request()).collect();
    // Where each case's observed form is in the batch.
    let mut observed_at: Vec<Option<usize>> = Vec::with_capacity(pending.len());
    for p in &pending {
        match &p.observed {
            Ok(o) => {
                observed_at.push(Some(requests.len()));
                requests.push(o.request(&p.request));
            }
            Err(_) => observed_at.push(None),
        }
    }
    let start = Instant::now();
    let outcomes = match guard("backend", || member.oracle.execute_batch(&requests)) {
        Ok(o) if o.len() == requests.len() => o,
        Ok(o) => {
            let e = format!("{name} answered {} requests of a batch of {}", o.len(), requests.len());
            requests.iter().map(|_| Err(OracleError::Failed { oracle: name.clone(), reason: e.clone() })).collect()
        }
        Err(c) => {
            let e = format!("the {name} adapter panicked at {}: {}", c.location, c.message);
            requests.iter().map(|_| Err(OracleError::Failed { oracle: name.clone(), reason: e.clone() })).collect()
        }
    };
    let elapsed = start.elapsed();
    let share = elapsed / pending.len().max(1) as u32;
    let mut outcomes: Vec<Option<Result<ExecOutcome, OracleError>>> = outcomes.into_iter().map(Some).collect();
    let mut cases = Vec::with_capacity(pending.len());
    for (k, p) in pending.iter().enumerate() {
        let outcome = outcomes.get_mut(k).and_then(Option::take).unwrap_or_else(|| {
            Err(OracleError::Failed { oracle: name.clone(), reason: "no outcome for the request".into() })
        });
        let observed = match (&p.observed, observed_at.get(k).copied().flatten()) {
            (Ok(o), Some(at)) => {
                outcomes.get_mut(at).and_then(Option::take).map(|outcome| ObservedAnswer { form: &o.form, outcome })
            }
            _ => None,
        };
        let mut case = p.case.clone();
        case.disagreements.clear();
        case.answers.push((name.clone(), Answer::of_outcome(&outcome)));
        case.durations = vec![(name.clone(), share)];
        let observations = Observations {
            request: Some(p.request.request()),
            reference: p.reference.clone(),
            executions: vec![ExecAnswer { oracle: member.oracle.as_ref(), outcome, observed }],
            referee: oracles.referee.as_deref(),
            operators: case.operators.clone(),
            strict_consumers: oracles.strict_consumers,
            ..Observations::default()
        };
        let expectation = case.expectation();
        match guard("judgement", || judge_counted(&expectation, &observations)) {
            Ok(j) => {
                case.disagreements = j.disagreements;
                case.coverage = j.coverage;
            }
            Err(c) => case.disagreements.push(super::case::panic_disagreement(c)),
        }
        cases.push(case);
    }
    BatchResult { cases, elapsed }
}

/// Runs each of `pending`'s TOSA MLIR through the sampled producer `member`,
/// without and with debug information, and judges what it made: the
/// validators' verdicts on the produced module and, when the in-tree
/// validator accepts it, its outputs on the in-tree executor (interfaces
/// mapped back to the case's) against the case's own.
pub fn run_producer(member: &Sampled, oracles: &OracleSet, pending: Vec<Pending>) -> BatchResult {
    let name = member.oracle.name().to_string();
    let start = Instant::now();
    let mut cases = Vec::with_capacity(pending.len());
    for p in &pending {
        let Some(mlir) = &p.mlir else { continue };
        let case_start = Instant::now();
        let mut case = p.case.clone();
        case.disagreements.clear();
        case.durations.clear();
        let request = p.request.request();
        let productions: Vec<ProductionAnswer<'_>> = [false, true]
            .into_iter()
            .map(|debug_info| {
                let ask = ProduceRequest { mlir, debug_info };
                let outcome = match guard("producer", || member.oracle.produce(&ask)) {
                    Ok(o) => o,
                    Err(c) => Err(OracleError::Failed {
                        oracle: name.clone(),
                        reason: format!("the {name} adapter panicked at {}: {}", c.location, c.message),
                    }),
                };
                let label = if debug_info { format!("{name} (debug info)") } else { name.clone() };
                case.answers.push((label, Answer::of_production(&outcome)));
                let validators: Vec<&dyn Oracle> = oracles.validators.iter().map(|v| v.as_ref()).collect();
                check_production(member.oracle.as_ref(), &validators, &request, debug_info, outcome)
            })
            .collect();
        case.durations.push((name.clone(), case_start.elapsed()));
        let observations = Observations {
            request: Some(request),
            reference: p.reference.clone(),
            referee: oracles.referee.as_deref(),
            productions,
            operators: case.operators.clone(),
            ..Observations::default()
        };
        let expectation = case.expectation();
        match guard("judgement", || judge(&expectation, &observations)) {
            Ok(ds) => case.disagreements = ds,
            Err(c) => case.disagreements.push(super::case::panic_disagreement(c)),
        }
        cases.push(case);
    }
    BatchResult { cases, elapsed: start.elapsed() }
}

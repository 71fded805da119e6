//! The second phase of a case: a sampled backend runs a batch of cases at
//! once (its start-up cost is paid once per batch), and each case's answer
//! is judged against the in-tree executor's outputs, with the referee's
//! vote when they differ.

use super::case::{Answer, CaseOutcome, Pending};
use super::guard::guard;
use super::oracles::{OracleSet, Sampled};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::judge::{judge, ExecAnswer, Observations, ProductionAnswer, ValidityAnswer};
use spvgraph_oracle::oracle::{
    ExecOutcome, ExecRequest, Oracle, OracleError, ProduceOutcome, ProduceRequest, ValidateOptions, Verdict,
};
use spvgraph_oracle::produced::ProducedRun;
use std::time::{Duration, Instant};

/// The cases of one batch after the backend ran them, with the backend's
/// wall time for the whole batch.
pub struct BatchResult {
    /// Each case with the backend's answer and the new disagreements only.
    pub cases: Vec<CaseOutcome>,
    /// Wall time of the backend's run.
    pub elapsed: Duration,
}

/// Runs `pending` through the sampled executor `member` and judges each case.
pub fn run_executor(member: &Sampled, oracles: &OracleSet, pending: Vec<Pending>) -> BatchResult {
    let name = member.oracle.name().to_string();
    let requests: Vec<ExecRequest<'_>> = pending.iter().map(|p| p.request.request()).collect();
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
    let mut cases = Vec::with_capacity(pending.len());
    for (p, outcome) in pending.iter().zip(outcomes) {
        let mut case = p.case.clone();
        case.disagreements.clear();
        case.answers.push((name.clone(), Answer::of_outcome(&outcome)));
        case.durations = vec![(name.clone(), share)];
        let observations = Observations {
            request: Some(p.request.request()),
            reference: p.reference.clone(),
            executions: vec![ExecAnswer { oracle: member.oracle.as_ref(), outcome }],
            referee: oracles.referee.as_deref(),
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
                produced_answer(member, oracles, &request, debug_info, outcome)
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

/// One production with the validators' verdicts on the module and its run.
fn produced_answer<'a>(
    member: &'a Sampled,
    oracles: &'a OracleSet,
    request: &ExecRequest<'_>,
    debug_info: bool,
    outcome: Result<ProduceOutcome, OracleError>,
) -> ProductionAnswer<'a> {
    let mut validity = Vec::new();
    let mut outputs = None;
    if let Ok(produced @ ProduceOutcome::Module { words, .. }) = &outcome {
        for v in &oracles.validators {
            let verdict = match guard("validator", || v.validate(words, &ValidateOptions::default())) {
                Ok(r) => r,
                Err(c) => Err(OracleError::Failed {
                    oracle: v.name().to_string(),
                    reason: format!("panicked at {}: {}", c.location, c.message),
                }),
            };
            validity.push(ValidityAnswer { oracle: v.as_ref(), verdict });
        }
        // An invalid module is reported as such; running it too would only
        // repeat the finding as a refusal.
        let in_tree_accepts = matches!(validity.first(), Some(ValidityAnswer { verdict: Ok(Verdict::Valid), .. }));
        if in_tree_accepts {
            outputs = Some(run_produced(request, produced));
        }
    }
    ProductionAnswer { producer: member.oracle.as_ref(), debug_info, outcome, validity, outputs }
}

/// The produced module on the in-tree executor, with the case's inputs
/// mapped onto its interface and its outputs mapped back.
fn run_produced(request: &ExecRequest<'_>, produced: &ProduceOutcome) -> Result<ExecOutcome, OracleError> {
    let failed = |reason: String| OracleError::Failed { oracle: "in-tree executor".to_string(), reason };
    let run = ProducedRun::new(request, produced).map_err(|e| failed(e.to_string()))?;
    let outcome = guard("in-tree executor", || Executor::default().execute(&run.request()))
        .map_err(|c| failed(format!("panicked at {}: {}", c.location, c.message)))??;
    match outcome {
        ExecOutcome::Outputs(out) => {
            run.case_outputs(&out).map(ExecOutcome::Outputs).map_err(|e| failed(e.to_string()))
        }
        other => Ok(other),
    }
}

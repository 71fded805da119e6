//! The second phase of a case: a sampled backend runs a batch of cases at
//! once (its start-up cost is paid once per batch), and each case's answer
//! is judged against the in-tree executor's outputs, with the referee's
//! vote when they differ.

use super::case::{Answer, CaseOutcome, Pending};
use super::guard::guard;
use super::oracles::{OracleSet, Sampled};
use spvgraph_oracle::judge::{judge, ExecAnswer, Observations};
use spvgraph_oracle::oracle::{ExecRequest, OracleError};
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

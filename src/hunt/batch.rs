//! The second phase of a case: a sampled backend runs a batch of cases at
//! once (its start-up cost is paid once per batch), and each case's answer
//! is judged against the in-tree executor's outputs, with the referee's
//! vote when they differ.

use super::case::{Answer, CaseOutcome, Pending};
use super::guard::guard;
use super::oracles::{OracleSet, Sampled};
use spvgraph_oracle::features;
use spvgraph_oracle::forms::run::{
    adds_documented, answers as form_answers, choose, observed_answer, run_cases, CaseRuns, FormCase,
};
use spvgraph_oracle::judge::{
    check_production, judge, judge_counted, ExecAnswer, Expectation, Observations, ProductionAnswer, ReadSubject,
    ReadingAnswer, ValidityAnswer,
};
use spvgraph_oracle::oracle::{
    ExecOutcome, ExecRequest, Oracle, OracleError, OwnedExecRequest, ProduceOutcome, ProduceRequest, ReadOutcome,
    Verdict,
};
use std::time::{Duration, Instant};

/// The cases of one batch after the backend ran them, with the backend's
/// wall time for the whole batch.
pub struct BatchResult {
    /// Each case with the backend's answer and the new disagreements only.
    pub cases: Vec<CaseOutcome>,
    /// Wall time of the backend's run.
    pub elapsed: Duration,
    /// Time spent judging the answers (the in-process judgement and the
    /// referee's runs it asks for).
    pub judgement: Duration,
}

/// One version's outcome per request of a batch, with its wall time.
fn run_batch(oracle: &dyn Oracle, requests: &[ExecRequest<'_>]) -> (Vec<Result<ExecOutcome, OracleError>>, Duration) {
    let name = oracle.name().to_string();
    let start = Instant::now();
    let run = || match oracle.executor() {
        Ok(e) => e.execute_batch(requests),
        Err(e) => requests.iter().map(|_| Err(e.clone())).collect(),
    };
    let outcomes = match guard("backend", run) {
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
    (outcomes, start.elapsed())
}

/// Runs `pending` through the sampled executor `member` (every version of
/// it, on the same requests) and judges each case with all their answers:
/// each valid case's observed form runs in the same batch, and each
/// operator is judged on its own from the values it shows.
/// `wants_form` says whether a form is worth running on a case (a guided
/// backend runs a form where it adds a judged cell; see
/// [`super::feed::Feed::wants_form`]).
pub fn run_executor(
    member: &Sampled,
    oracles: &OracleSet,
    pending: Vec<Pending>,
    wants_form: &dyn Fn(&Pending, &spvgraph_oracle::forms::Rewritten) -> bool,
) -> BatchResult {
    let versions: Vec<&dyn Oracle> = member.versions().map(|o| o.as_ref()).collect();
    // Each version runs every case, the forms chosen for it and the rescues
    // of the valid cases it refuses, in batches (forms::run::run_cases).
    let mut runs: Vec<std::vec::IntoIter<CaseRuns>> = Vec::new();
    let mut shares = Vec::new();
    let mut elapsed = Duration::ZERO;
    for o in &versions {
        let form_cases: Vec<FormCase<'_>> = pending.iter().map(|p| form_case(*o, oracles, p, wants_form)).collect();
        let mut took = Duration::ZERO;
        let mut batch = |requests: &[ExecRequest<'_>]| {
            let (outcomes, t) = run_batch(*o, requests);
            took += t;
            outcomes
        };
        let case_runs = run_cases(&form_cases, &mut batch);
        runs.push(case_runs.into_iter());
        shares.push((o.name().to_string(), took / pending.len().max(1) as u32));
        elapsed += took;
    }
    let mut cases = Vec::with_capacity(pending.len());
    let judging = Instant::now();
    for p in &pending {
        let mut case = p.case.clone();
        case.disagreements.clear();
        let mut per_version: Vec<(&dyn Oracle, CaseRuns)> = Vec::new();
        for (o, run) in versions.iter().zip(runs.iter_mut()) {
            let runs = run.next().unwrap_or_else(|| CaseRuns {
                plain: Err(OracleError::Failed {
                    oracle: o.name().to_string(),
                    reason: "no answer for this request".into(),
                }),
                forms: Vec::new(),
                rescue: None,
                observed: None,
                rescue_observed: None,
            });
            per_version.push((*o, runs));
        }
        let form = p.observed.as_ref().ok().map(|o| &o.form);
        let mut executions = Vec::new();
        for (o, runs) in &per_version {
            case.answers.push((o.name().to_string(), Answer::of_outcome(&runs.plain)));
            let observed = observed_answer(runs, form);
            executions.push(ExecAnswer { oracle: *o, outcome: runs.plain.clone(), observed });
        }
        // The forms' answers under labels of their own, counted apart.
        for (o, runs) in &per_version {
            for f in &runs.forms {
                case.answers.push((format!("{} (forms)", o.name()), Answer::of_outcome(&f.outcome)));
            }
            if let Some(r) = &runs.rescue {
                case.answers.push((rescue_label(o.name()), Answer::of_outcome(&r.outcome)));
            }
        }
        let forms = per_version.iter().flat_map(|(o, runs)| form_answers(*o, runs, &[])).collect();
        case.durations = shares.clone();
        let observations = Observations {
            request: Some(p.request.request()),
            reference: p.reference.clone(),
            executions,
            referee: oracles.referee.as_deref(),
            operators: case.operators.clone(),
            strict_consumers: oracles.strict_consumers,
            forms,
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
    BatchResult { cases, elapsed, judgement: judging.elapsed() }
}

/// What version `o` runs of `p` besides the case as given: for a valid case
/// the in-tree executor ran, up to `oracles.forms` equivalent forms chosen
/// by the case's seed (none that adds a construct `o` is documented to
/// mishandle), a rescue when `o` refuses it, and its observed form (every
/// intermediate value an output) when the case has one.
fn form_case<'p>(
    o: &dyn Oracle,
    oracles: &OracleSet,
    p: &'p Pending,
    wants_form: &dyn Fn(&Pending, &spvgraph_oracle::forms::Rewritten) -> bool,
) -> FormCase<'p> {
    let valid = p.case.expectation() == Expectation::Valid && matches!(p.reference, Some(ExecOutcome::Outputs(_)));
    let forms = if valid && oracles.forms > 0 {
        let plain = features::detect_words(&p.request.module, Some(&p.request.request()));
        choose(&p.request, p.case.seed, oracles.forms, |r| adds_documented(o, &plain, r) || !wants_form(p, r))
    } else {
        Vec::new()
    };
    let observed = p.observed.as_ref().ok().map(|o| OwnedExecRequest { module: o.words.clone(), ..p.request.clone() });
    FormCase { request: &p.request, forms, rescue: valid && oracles.rescue, observed }
}

/// Runs each of `pending`'s TOSA MLIR through the sampled producer `member`,
/// without and with debug information, and judges what it made: the
/// validators' verdicts on the produced module and, when the in-tree
/// validator accepts it, its outputs on the in-tree executor (interfaces
/// mapped back to the case's) against the case's own.
pub fn run_producer(member: &Sampled, oracles: &OracleSet, pending: Vec<Pending>) -> BatchResult {
    let start = Instant::now();
    let mut cases = Vec::with_capacity(pending.len());
    for p in &pending {
        let Some(mlir) = &p.mlir else { continue };
        let mut case = p.case.clone();
        case.disagreements.clear();
        case.durations.clear();
        let request = p.request.request();
        let mut productions: Vec<ProductionAnswer<'_>> = Vec::new();
        // Every version of the producer, on the same MLIR.
        for producer in member.versions() {
            let name = producer.name().to_string();
            let case_start = Instant::now();
            for debug_info in [false, true] {
                let ask = ProduceRequest { mlir, debug_info };
                let outcome = match guard("producer", || producer.producer().and_then(|p| p.produce(&ask))) {
                    Ok(o) => o,
                    Err(c) => Err(OracleError::Failed {
                        oracle: name.clone(),
                        reason: format!("the {name} adapter panicked at {}: {}", c.location, c.message),
                    }),
                };
                let label = if debug_info { format!("{name} (debug info)") } else { name.clone() };
                case.answers.push((label, Answer::of_production(&outcome)));
                let validators: Vec<&dyn Oracle> = oracles.validators.iter().map(|v| v.as_ref()).collect();
                productions.push(check_production(producer.as_ref(), &validators, &request, debug_info, outcome));
            }
            case.durations.push((name, case_start.elapsed()));
        }
        let readings = read_productions(oracles, &productions, &mut case);
        let observations = Observations {
            request: Some(request),
            reference: p.reference.clone(),
            referee: oracles.referee.as_deref(),
            productions,
            operators: case.operators.clone(),
            readings,
            ..Observations::default()
        };
        let expectation = case.expectation();
        match guard("judgement", || judge(&expectation, &observations)) {
            Ok(ds) => case.disagreements = ds,
            Err(c) => case.disagreements.push(super::case::panic_disagreement(c)),
        }
        cases.push(case);
    }
    BatchResult { cases, elapsed: start.elapsed(), judgement: Duration::ZERO }
}

/// Every reader on what each producer made of the case that the in-tree
/// validator accepts: the module, and the container it came in (a VGF).
fn read_productions<'a>(
    oracles: &'a OracleSet,
    productions: &[ProductionAnswer<'_>],
    case: &mut CaseOutcome,
) -> Vec<ReadingAnswer<'a>> {
    let mut readings = Vec::new();
    for p in productions {
        let Ok(ProduceOutcome::Module { words, graph_constants, container, .. }) = &p.outcome else { continue };
        if !matches!(p.validity.first(), Some(ValidityAnswer { verdict: Ok(Verdict::Valid), .. })) {
            continue;
        }
        for r in &oracles.readers {
            let producer = p.producer.name().to_string();
            let debug = if p.debug_info { " (debug info)" } else { "" };
            let mut read = |what: &str, container: bool, outcome: Result<ReadOutcome, OracleError>| {
                case.answers.push((format!("{} ({producer}{debug} {what})", r.name()), Answer::of_reading(&outcome)));
                readings.push(ReadingAnswer {
                    oracle: r.as_ref(),
                    subject: ReadSubject::Produced {
                        producer: producer.clone(),
                        words: words.clone(),
                        graph_constants: graph_constants.clone(),
                        container,
                    },
                    outcome,
                });
            };
            let panicked = |c: super::guard::Caught| {
                Err(OracleError::Failed {
                    oracle: r.name().to_string(),
                    reason: format!("panicked at {}: {}", c.location, c.message),
                })
            };
            read("module", false, guard("reader", || r.reader().and_then(|x| x.read(words))).unwrap_or_else(panicked));
            if let Some(bytes) = container {
                let container = guard("reader", || r.reader().and_then(|x| x.read_container(bytes)));
                read("container", true, container.unwrap_or_else(panicked));
            }
        }
    }
    readings
}

/// The label of a backend's rescue answer among a case's answers.
pub fn rescue_label(oracle: &str) -> String {
    format!("{oracle} (rescue)")
}

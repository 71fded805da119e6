//! The one judgement: given what a case is expected to be and what every
//! oracle answered, which answers are wrong, how, and how seriously.
//!
//! `spvgraph hunt`, `spvgraph diff`, `spvgraph diff-exec`, `spvgraph validate
//! --oracle both`, the corpus check, the fuzz targets and the tests all call
//! [`judge`]; nothing else decides whether an oracle disagrees, and
//! [`Disagreement::disposition`] alone decides what a disagreement amounts
//! to (a finding, documented, a note, or charged to no oracle). It never
//! names an oracle: what a validator claims to check comes from
//! [`crate::oracle::Validator::rule_claim`], documented discrepancies from
//! [`Oracle::known_discrepancies`], and a disagreement about outputs is
//! settled by the oracle passed as the referee (one with
//! [`Capability::Reference`], whose precise run is the yardstick of the TOSA
//! compliance rules).
//!
//! | expectation | answer | kind |
//! |---|---|---|
//! | valid | a validator rejects | `rejects-valid` |
//! | breaks R | a validator that checks R accepts | `misses-rule` |
//! | breaks R | the in-tree validator rejects without R / with R and others | `wrong-rule` / `extra-rules` |
//! | breaks R | a validator documented not to check R rejects | `stricter` |
//! | any | a backend dies on a signal / hangs / runs out of memory | `crash` / `timeout` / `out-of-memory` |
//! | valid | a backend refuses, and no pipeline-creation rule explains it ([`pipeline_rules`]) | `refused-valid` |
//! | valid | outputs not compliant (the referee names the culprit) | `wrong-output` |
//! | valid | the referee's own normal-mode result fails the rule on FFT elements (judged for no backend) | `checker-disagrees-with-reference` (no oracle named) |
//! | breaks R | a backend runs it and produces outputs | `accepts-invalid` (once per rule) |
//!
//! What a backend that reads SPIR-V (a Vulkan consumer) does with an invalid
//! module is undefined behaviour: its `accepts-invalid` and its crashes on
//! such modules are [`Severity::Note`], not findings, unless
//! [`Observations::strict_consumers`] asks for them.
//! | valid TOSA | the producer crashes / refuses / emits an invalid module / one that computes something else | `producer-crash` / `producer-rejects` / `producer-invalid-output` / `producer-wrong-semantics` |
//! | any | of two versions of one tool ([`crate::oracle::Instance::tool`], [`crate::oracle::Instance::channel`]), the newer / the older is wrong and the other right | `regression` / `fix` |
//! | valid | a backend's results for two equivalent forms of the case differ where the operator sequence is the same (see `forms` for floating point) | `form-differs` |
//! | any / valid | a reader crashes or hangs / refuses the module / shows it otherwise (see `reading`) | `reader-crash` / `reader-rejects-valid` / `reader-differs` |

mod disposition;
mod execution;
pub mod forms;
mod kind;
mod local;
mod operand_precision;
mod production;
pub mod reading;
mod release;
mod signature;
mod validity;

pub use disposition::{Disposition, DocumentedPolicy};
pub use execution::{compare_outputs, pipeline_rules, OutputComparison};
pub use forms::{FormAnswer, AS_GIVEN};
pub use kind::{Kind, Severity};
pub use local::{
    judge_operators, why_not_run, Coverage, OperatorJudgement, OperatorOutcome, OperatorVerdict, UnjudgedReason,
};
pub use production::check_production;
pub use reading::{Aspect, ReadSubject, ReadingAnswer};
pub use signature::{fnv1a, normalize, Signature};

use crate::attribution::{Owner, Status};
use crate::features::{self, Feature, FeatureSet};
use crate::oracle::{
    Capability, ExecOutcome, ExecRequest, KnownDiscrepancy, Oracle, OracleError, ProduceOutcome, Verdict,
};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;

/// What a case is expected to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// Valid: every validator accepts it, every backend runs it.
    Valid,
    /// It breaks exactly this must-reject rule.
    Breaks {
        /// The rule.
        rule: RuleId,
        /// How it was broken (the near-valid mutator), which tells apart
        /// documented discrepancies that only show with one way of breaking it.
        mutator: Option<String>,
    },
    /// It is invalid, without a plan saying how: a module a user says is
    /// invalid (`spvgraph diff --expect invalid`), or one the in-tree
    /// validator rejects where nothing else states the expectation. `rules`
    /// are the must-reject rules the in-tree validator names (possibly
    /// none): a validator that checks one of them must reject the module;
    /// which rules each validator names is not judged.
    Invalid {
        /// The rules broken, as far as known.
        rules: Vec<RuleId>,
        /// How it was broken, when known (a corpus finding's manifest says).
        mutator: Option<String>,
    },
}

impl Expectation {
    /// The rule broken, if any (for [`Expectation::Invalid`], the first known one).
    pub fn rule(&self) -> Option<RuleId> {
        match self {
            Expectation::Valid => None,
            Expectation::Breaks { rule, .. } => Some(*rule),
            Expectation::Invalid { rules, .. } => rules.first().copied(),
        }
    }

    /// Whether the module is expected to be invalid.
    pub fn is_invalid(&self) -> bool {
        match self {
            Expectation::Valid => false,
            Expectation::Breaks { .. } | Expectation::Invalid { .. } => true,
        }
    }

    /// The near-valid mutator that broke it, when known.
    pub fn mutator(&self) -> Option<&str> {
        match self {
            Expectation::Breaks { mutator, .. } | Expectation::Invalid { mutator, .. } => mutator.as_deref(),
            Expectation::Valid => None,
        }
    }
}

/// A documented discrepancy a disagreement is an instance of.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Documented {
    /// Why the oracle answers as it does.
    pub why: String,
    /// The minimal module, relative to the repository root.
    pub finding: String,
    /// The project the bug belongs to.
    pub owner: Owner,
    /// Where it stands upstream.
    #[serde(flatten)]
    pub status: Status,
    /// The upstream issue or change, where known.
    pub upstream: Option<String>,
    /// The module features that matched the row.
    pub features: Vec<Feature>,
}

impl Documented {
    /// The record of documented discrepancy `k`.
    pub fn of(k: &KnownDiscrepancy) -> Documented {
        Documented {
            why: k.why.to_string(),
            finding: k.finding.to_string(),
            owner: k.owner,
            status: k.status,
            upstream: k.upstream.map(str::to_string),
            features: k.features.to_vec(),
        }
    }
}

/// One disagreement.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Disagreement {
    /// Its kind.
    pub kind: Kind,
    /// How serious it is.
    pub severity: Severity,
    /// The oracles whose answer is wrong (the culprit first; two when the
    /// referee could not tell which of them is).
    pub oracles: Vec<String>,
    /// The rule concerned: the one the case breaks, or the one an oracle named.
    pub rule: Option<RuleId>,
    /// The TOSA operators concerned: the one a diagnostic or a wrong output
    /// names, else every operator of the graph that ran.
    pub operators: Vec<TosaOp>,
    /// A further discriminator of the signature (unexpected rules, mutator,
    /// debug-info variant, ...).
    pub discriminator: Option<String>,
    /// The message the signature normalizes (the oracle's own words).
    pub message: Option<String>,
    /// What happened, in full, for the finding's note.
    pub detail: String,
    /// The documented discrepancy it is an instance of, if any.
    pub documented: Option<Documented>,
    /// Features of what the operator concerned read, when it was judged on
    /// its own (subnormal operand values computed upstream): matched against
    /// documented discrepancies with the module's own.
    #[serde(skip)]
    pub operand_features: FeatureSet,
}

impl Disagreement {
    /// A disagreement of `kind` by `oracle`, with the kind's severity.
    pub fn new(kind: Kind, oracle: &str, detail: impl Into<String>) -> Disagreement {
        Disagreement {
            kind,
            severity: kind.severity(),
            oracles: vec![oracle.to_string()],
            rule: None,
            operators: Vec::new(),
            discriminator: None,
            message: None,
            detail: detail.into(),
            documented: None,
            operand_features: FeatureSet::new(),
        }
    }

    /// The operator the signature names: the only one concerned, if there is one.
    pub fn signature_operator(&self) -> Option<TosaOp> {
        match self.operators.as_slice() {
            [op] => Some(*op),
            _ => None,
        }
    }

    /// Its dedup signature.
    pub fn signature(&self) -> Signature {
        Signature::of(self)
    }

    fn with_rule(mut self, rule: Option<RuleId>) -> Self {
        self.rule = rule;
        self
    }

    fn with_operators(mut self, operators: Vec<TosaOp>) -> Self {
        self.operators = operators;
        self
    }

    fn with_message(mut self, message: Option<String>) -> Self {
        self.message = message;
        self
    }

    fn with_discriminator(mut self, d: Option<String>) -> Self {
        self.discriminator = d;
        self
    }
}

/// One validator's answer about a module.
pub struct ValidityAnswer<'a> {
    /// The validator.
    pub oracle: &'a dyn Oracle,
    /// Its verdict.
    pub verdict: Result<Verdict, OracleError>,
}

/// One backend's run of the case.
pub struct ExecAnswer<'a> {
    /// The backend.
    pub oracle: &'a dyn Oracle,
    /// Its outcome.
    pub outcome: Result<ExecOutcome, OracleError>,
    /// Its run of the case's observed form, when it was asked for one: then
    /// every operator is judged on its own (see [`judge_operators`]).
    pub observed: Option<ObservedAnswer<'a>>,
}

impl<'a> ExecAnswer<'a> {
    /// A backend's run of the case alone (no observed form: only the
    /// graph's outputs are judged, the fallback).
    pub fn plain(oracle: &'a dyn Oracle, outcome: Result<ExecOutcome, OracleError>) -> ExecAnswer<'a> {
        ExecAnswer { oracle, outcome, observed: None }
    }
}

/// A backend's run of the observed form of the case
/// ([`spvgraph_ir::observe::observed_form`]).
pub struct ObservedAnswer<'a> {
    /// The form (its module, and what each output shows).
    pub form: &'a spvgraph_ir::observe::ObservedForm,
    /// The backend's outcome on it (same inputs and graph constants as the case).
    pub outcome: Result<ExecOutcome, OracleError>,
    /// When the form is the observed form of the case's rescue (the backend
    /// ran the case only rescued, [`crate::forms::rescue`]): the rescue's
    /// run, which the form's values are judged with.
    pub rescue: Option<RescuedRun<'a>>,
}

/// A backend's run of a case's rescue, whose observed form stands in for
/// the case's: the rescue keeps the case's operators, so each is judged on
/// its own as in the case.
pub struct RescuedRun<'a> {
    /// The rescue's request (its module, inputs and graph constants).
    pub request: ExecRequest<'a>,
    /// The backend's outputs of the rescue, in the rescue's order.
    pub outputs: Option<&'a [TensorData]>,
    /// The in-tree executor's outputs on the rescue, in the same order.
    pub reference: &'a [TensorData],
}

/// What a producer made of the case's TOSA MLIR, and what became of it.
pub struct ProductionAnswer<'a> {
    /// The producer.
    pub producer: &'a dyn Oracle,
    /// Whether it was asked for debug information.
    pub debug_info: bool,
    /// Its outcome.
    pub outcome: Result<ProduceOutcome, OracleError>,
    /// The validators' verdicts on the produced module.
    pub validity: Vec<ValidityAnswer<'a>>,
    /// The produced module run on the in-tree executor with the case's
    /// inputs, its outputs in the case's output order (`None`: not run).
    pub outputs: Option<Result<ExecOutcome, OracleError>>,
}

/// Everything the oracles answered about one case.
#[derive(Default)]
pub struct Observations<'a> {
    /// The validators' verdicts on the module.
    pub validity: Vec<ValidityAnswer<'a>>,
    /// The request the executors ran, when they ran.
    pub request: Option<ExecRequest<'a>>,
    /// The in-tree executor's outcome: the outputs the others are compared with.
    pub reference: Option<ExecOutcome>,
    /// The other backends' outcomes.
    pub executions: Vec<ExecAnswer<'a>>,
    /// Backends judged against the referee's precise run alone, with no
    /// in-tree run to compare with: the in-tree executor itself in
    /// `spvgraph diff-exec`, a sweep that measures it against the reference.
    /// Their outcome by itself is judged as any backend's; their outputs
    /// only by the referee (no referee, or one that cannot answer: not judged).
    pub against_referee: Vec<ExecAnswer<'a>>,
    /// The oracle that settles output disagreements (see [`Capability::Reference`]).
    pub referee: Option<&'a dyn Oracle>,
    /// What producers made of the case.
    pub productions: Vec<ProductionAnswer<'a>>,
    /// The TOSA operators of the graph that ran (what a crash is about, until reduced).
    pub operators: Vec<TosaOp>,
    /// Whether a consumer's answer on an invalid module is judged as a
    /// finding ([`Severity::Low`]) rather than a note ([`Severity::Note`]):
    /// Vulkan leaves invalid SPIR-V undefined, so by default it is not.
    pub strict_consumers: bool,
    /// The module judged, when no executor ran it (else the request's
    /// module is used): documented discrepancies are matched by its features.
    pub module: Option<&'a [u32]>,
    /// Backends' runs of the case in equivalent forms ([`crate::forms`]),
    /// compared with their runs of the case as given.
    pub forms: Vec<FormAnswer<'a>>,
    /// What readers ([`Capability::Describe`]) showed of the module, or of a
    /// producer's container of it.
    pub readings: Vec<ReadingAnswer<'a>>,
}

impl Observations<'_> {
    /// The features of the module judged (with the request's data when
    /// executors ran it); none when no module is known.
    pub fn features(&self) -> FeatureSet {
        match (&self.request, self.module) {
            (Some(r), _) => features::detect_words(r.module, Some(r)),
            (None, Some(words)) => features::detect_words(words, None),
            (None, None) => FeatureSet::new(),
        }
    }
}

/// Every disagreement among `observations` with `expectation`.
pub fn judge(expectation: &Expectation, observations: &Observations<'_>) -> Vec<Disagreement> {
    judge_counted(expectation, observations).disagreements
}

/// What [`judge_counted`] found.
#[derive(Clone, Debug, Default)]
pub struct Judgement {
    /// Every disagreement.
    pub disagreements: Vec<Disagreement>,
    /// What was judged of each backend's run of a valid case.
    pub coverage: Vec<Coverage>,
}

/// [`judge`], also saying what was judged of each backend's run.
pub fn judge_counted(expectation: &Expectation, observations: &Observations<'_>) -> Judgement {
    let mut out = Vec::new();
    for answer in &observations.validity {
        out.extend(validity::judge(expectation, answer));
    }
    let mut vote = execution::Vote::new(observations.referee);
    let (executions, coverage) = execution::judge(expectation, observations, &mut vote);
    out.extend(executions);
    for p in &observations.productions {
        out.extend(production::judge(p, observations, &mut vote));
    }
    for r in &observations.readings {
        out.extend(reading::judge(expectation, r));
    }
    out.extend(vote.take_notes());
    // Notes about the referee's own results come once per case.
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|d| d.kind != Kind::CheckerDisagreesWithReference || seen.insert(d.signature().key()));
    if !out.is_empty() {
        let features = observations.features();
        for d in &mut out {
            let mut with_operands = features.clone();
            with_operands.extend(d.operand_features.iter().copied());
            document(d, expectation, observations, &with_operands);
        }
    }
    // Each form's disagreements are documented by that form's features.
    out.extend(forms::judge(expectation, observations, &mut vote));
    release::judge(&mut out, observations);
    Judgement { disagreements: out, coverage }
}

/// Marks `d` as documented when the table of the oracle it is about explains
/// it (see [`KnownDiscrepancy`] for what a row matches; `features` are the
/// judged module's). A producer's output that a validator rejects is
/// documented when that validator is known to reject such valid modules.
fn document(d: &mut Disagreement, expectation: &Expectation, observations: &Observations<'_>, features: &FeatureSet) {
    let mutator = expectation.mutator();
    // A producer's invalid output is its own documented bug, or else a
    // validator's documented rejection of a valid module.
    // The validator's rejection is about the produced module: its features
    // (debug info after the graph, say) are the ones a row names.
    let produced_features = || -> FeatureSet {
        let produced = observations.productions.iter().filter_map(|p| match &p.outcome {
            Ok(crate::oracle::ProduceOutcome::Module { words, .. }) => Some(features::detect_words(words, None)),
            _ => None,
        });
        produced.flatten().chain(features.iter().copied()).collect()
    };
    let candidates: Vec<(&str, Kind, FeatureSet)> = match (d.kind, d.oracles.as_slice()) {
        (Kind::ProducerInvalidOutput, [producer, validator, ..]) => vec![
            (producer.as_str(), d.kind, features.clone()),
            (validator.as_str(), Kind::RejectsValid, produced_features()),
        ],
        // A wrong output of the plain form is a wrong output: a documented
        // cause of wrong outputs explains it too.
        (Kind::ObservedFormDiffers, [first, ..]) => vec![(first.as_str(), Kind::WrongOutput, features.clone())],
        (kind, [first, ..]) => vec![(first.as_str(), kind, features.clone())],
        (_, []) => return,
    };
    let produced_validity = observations.productions.iter().flat_map(|p| p.validity.iter().map(|a| a.oracle));
    let oracles = observations
        .validity
        .iter()
        .map(|a| a.oracle)
        .chain(observations.executions.iter().map(|a| a.oracle))
        .chain(observations.against_referee.iter().map(|a| a.oracle))
        .chain(observations.productions.iter().map(|p| p.producer))
        .chain(produced_validity)
        .chain(observations.readings.iter().map(|r| r.oracle));
    for (oracle_name, kind, features) in candidates {
        for o in oracles.clone().filter(|o| o.name() == oracle_name) {
            let hit = o.known_discrepancies().iter().find(|k| {
                k.names_something()
                    && k.kind == kind.name()
                    && k.features.iter().all(|f| features.contains(f))
                    && k.rule.is_none_or(|r| Some(r) == d.rule)
                    && k.mutator.is_none_or(|m| Some(m) == mutator)
                    && k.operator.is_none_or(|op| d.operators.contains(&op))
                    && k.message.is_none_or(|m| {
                        // Rows quote messages as found or as signatures show
                        // them (digits as N): either matches.
                        let (m, norm) = (m, normalize(m));
                        let holds = |x: &str| x.contains(m) || normalize(x).contains(&norm);
                        d.message.as_deref().is_some_and(holds) || holds(&d.detail)
                    })
            });
            if let Some(k) = hit {
                d.documented = Some(Documented::of(k));
                return;
            }
        }
    }
}

/// Whether an oracle answers a question (it lists the capability).
pub fn can(oracle: &dyn Oracle, what: Capability) -> bool {
    oracle.can(what)
}

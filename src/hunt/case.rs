//! One case of a hunt: generate it (valid or near-valid, decided by its
//! seed), run the round-trip and every validator on it, run the in-tree
//! executor when a sampled backend will need its outputs, and judge.
//!
//! Sampled backends and producers run later, in batches
//! ([`super::batch`]); what they need travels in a [`Pending`].

use super::guard::{guard, Caught};
use super::oracles::OracleSet;
use spvgraph_generator::near_valid::{near_valid_from_seed, NearValid};
use spvgraph_generator::prng::SplitMix64;
use spvgraph_generator::{generate_from_seed, Case, Config};
use spvgraph_ir::elem::Profile;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::module::first_difference;
use spvgraph_ir::observe::{observed_form, ObservedForm};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::cells::{case_cells, CaseCells};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::judge::{
    judge, Coverage, Disagreement, Expectation, Kind, Observations, ReadSubject, ReadingAnswer, ValidityAnswer,
};
use spvgraph_oracle::oracle::{
    ExecOutcome, ExecRequest, OracleError, OwnedExecRequest, ProduceOutcome, ReadOutcome, Refusal, ValidateOptions,
    Verdict,
};
use std::collections::BTreeMap;

/// The round-trip result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoundTrip {
    /// Not run (no module).
    NotRun,
    /// Decode then encode gave the same words.
    Identical,
    /// The words do not decode (expected for near-valid modules of binary rules).
    Undecodable(String),
    /// The words decode, but encoding fails or gives other words.
    Differs(String),
}

/// The case a hunt index denotes.
#[derive(Clone, Debug)]
pub enum Subject {
    /// A valid-by-construction case.
    Valid(Case),
    /// A near-valid case.
    NearValid(NearValid),
    /// Generation panicked or found nothing to break; only the plan is known.
    Nothing,
}

impl Subject {
    /// The generated case the module comes from (for a near-valid one, the
    /// valid case it was made from: its interface and input data).
    pub fn case(&self) -> Option<&Case> {
        match self {
            Subject::Valid(c) => Some(c),
            Subject::NearValid(nv) => Some(&nv.base),
            Subject::Nothing => None,
        }
    }
}

/// What one oracle answered, in a form a finding keeps.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "answer", rename_all = "kebab-case")]
pub enum Answer {
    /// Accepts the module.
    Valid,
    /// Rejects it.
    Invalid {
        /// Rules named (in-tree) or guessed from the message.
        rules: Vec<String>,
        /// The first diagnostics.
        diagnostics: Vec<String>,
    },
    /// Produced outputs.
    Outputs {
        /// `elem[shape]` per output.
        outputs: Vec<String>,
    },
    /// Refused to run the graph.
    Refused {
        /// Why, as the oracle classifies it.
        kind: String,
        /// Its explanation.
        reason: String,
    },
    /// Crashed, hung or ran out of memory.
    Abnormal {
        /// How it ended.
        how: String,
        /// What it printed last.
        detail: String,
    },
    /// Read the module (a reader): how much it shows.
    Read {
        /// Graphs shown.
        graphs: usize,
        /// Operation nodes shown.
        nodes: usize,
    },
    /// Produced a module.
    Produced {
        /// Its size in words.
        words: usize,
        /// What the producer did on the way.
        notes: Vec<String>,
    },
    /// Could not answer.
    Error {
        /// Why.
        error: String,
    },
}

impl Answer {
    /// A validator's answer.
    pub fn of_verdict(v: &Result<Verdict, OracleError>) -> Answer {
        match v {
            Ok(Verdict::Valid) => Answer::Valid,
            Ok(Verdict::Invalid(ds)) => {
                let mut rules: Vec<String> = Vec::new();
                for r in ds.iter().filter_map(|d| d.rule) {
                    if !rules.iter().any(|x| x == r.name()) {
                        rules.push(r.name().to_string());
                    }
                }
                let diagnostics = ds
                    .iter()
                    .take(20)
                    .map(|d| match &d.instruction {
                        Some(i) => format!("{} ({i})", d.message),
                        None => d.message.clone(),
                    })
                    .collect();
                Answer::Invalid { rules, diagnostics }
            }
            Err(e) => Answer::Error { error: e.to_string() },
        }
    }

    /// A backend's answer.
    pub fn of_outcome(o: &Result<ExecOutcome, OracleError>) -> Answer {
        match o {
            Ok(ExecOutcome::Outputs(ts)) => {
                Answer::Outputs { outputs: ts.iter().map(|t| format!("{}{:?}", t.elem(), t.shape())).collect() }
            }
            Ok(ExecOutcome::Refused { kind, reason }) => {
                Answer::Refused { kind: format!("{kind:?}").to_lowercase(), reason: reason.clone() }
            }
            Ok(ExecOutcome::Abnormal { how, detail }) => {
                Answer::Abnormal { how: how.to_string(), detail: detail.clone() }
            }
            Err(e) => Answer::Error { error: e.to_string() },
        }
    }

    /// A producer's answer.
    pub fn of_production(o: &Result<ProduceOutcome, OracleError>) -> Answer {
        match o {
            Ok(ProduceOutcome::Module { words, notes, .. }) => {
                Answer::Produced { words: words.len(), notes: notes.iter().map(ToString::to_string).collect() }
            }
            Ok(ProduceOutcome::Rejected { message }) => {
                Answer::Refused { kind: "rejected".to_string(), reason: message.clone() }
            }
            Ok(ProduceOutcome::Abnormal { how, detail }) => {
                Answer::Abnormal { how: how.to_string(), detail: detail.clone() }
            }
            Err(e) => Answer::Error { error: e.to_string() },
        }
    }

    /// A reader's answer.
    pub fn of_reading(o: &Result<ReadOutcome, OracleError>) -> Answer {
        match o {
            Ok(ReadOutcome::Read(r)) => {
                Answer::Read { graphs: r.graphs.len(), nodes: r.graphs.iter().map(|g| g.nodes.len()).sum() }
            }
            Ok(ReadOutcome::Rejected { message, .. }) => {
                Answer::Refused { kind: "rejected".to_string(), reason: message.clone() }
            }
            Ok(ReadOutcome::Abnormal { how, detail }) => {
                Answer::Abnormal { how: how.to_string(), detail: detail.clone() }
            }
            Err(e) => Answer::Error { error: e.to_string() },
        }
    }

    /// Whether a validator accepted.
    pub fn is_valid(&self) -> bool {
        matches!(self, Answer::Valid)
    }
}

/// Everything learned about one case.
#[derive(Clone, Debug)]
pub struct CaseOutcome {
    /// Hunt case index.
    pub index: u64,
    /// Its seed.
    pub seed: u64,
    /// The rule a near-valid case was planned to break (`None`: a valid case).
    pub planned_rule: Option<RuleId>,
    /// The case.
    pub subject: Subject,
    /// Why a planned near-valid case could not be made (no applicable case).
    pub unavailable: Option<String>,
    /// The module's words, when there is a module.
    pub words: Option<Vec<u32>>,
    /// The target environment it was validated under.
    pub target_env: TargetEnv,
    /// The consumer's profiles (`None` = all).
    pub profiles: Option<Vec<Profile>>,
    /// Round-trip result.
    pub roundtrip: RoundTrip,
    /// Every oracle's answer, in the order they ran (validators, then the
    /// in-tree executor and sampled backends).
    pub answers: Vec<(String, Answer)>,
    /// Wall time of each oracle's answer (a batch's time is shared out evenly).
    pub durations: Vec<(String, std::time::Duration)>,
    /// The entry point executors ran.
    pub entry: Option<String>,
    /// The operators of the graph that entry point runs.
    pub operators: Vec<TosaOp>,
    /// The disagreements.
    pub disagreements: Vec<Disagreement>,
    /// What was judged of each backend's run (valid cases the backends ran).
    pub coverage: Vec<Coverage>,
    /// For a mutant of a finding's case: which one (see [`super::neighbours`]).
    pub neighbour: Option<super::neighbours::NeighbourOf>,
    /// For a case of a `--profile networks` hunt: the network it is a
    /// neighbour of, and how (see [`super::networks`]).
    pub network: Option<super::networks::NetworkOrigin>,
}

impl CaseOutcome {
    /// Case `index` of seed `seed` with nothing learned yet: every other
    /// field is filled in as the case is made and run.
    pub fn empty(index: u64, seed: u64) -> CaseOutcome {
        CaseOutcome {
            index,
            seed,
            planned_rule: None,
            subject: Subject::Nothing,
            unavailable: None,
            words: None,
            target_env: TargetEnv::VULKAN_1_3,
            profiles: None,
            roundtrip: RoundTrip::NotRun,
            answers: Vec::new(),
            durations: Vec::new(),
            entry: None,
            operators: Vec::new(),
            disagreements: Vec::new(),
            coverage: Vec::new(),
            neighbour: None,
            network: None,
        }
    }

    /// What the case is expected to be.
    pub fn expectation(&self) -> Expectation {
        match (&self.subject, self.planned_rule) {
            (Subject::NearValid(nv), _) => Expectation::Breaks { rule: nv.rule, mutator: Some(nv.mutator.to_string()) },
            (_, Some(rule)) => Expectation::Breaks { rule, mutator: None },
            (_, None) => Expectation::Valid,
        }
    }

    /// The answer of oracle `name`, if it ran.
    pub fn answer(&self, name: &str) -> Option<&Answer> {
        self.answers.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }
}

/// What a sampled backend or producer needs to run a case later.
#[derive(Clone, Debug)]
pub struct Pending {
    /// The case so far (its disagreements are those of the first phase).
    pub case: CaseOutcome,
    /// The request: the module, the chosen entry point, inputs and graph constants.
    pub request: OwnedExecRequest,
    /// The in-tree executor's outcome on it (`None` for near-valid cases).
    pub reference: Option<ExecOutcome>,
    /// The case's TOSA MLIR, for producers (valid cases only).
    pub mlir: Option<String>,
    /// The observed form of the request's graph and its words (valid cases
    /// only): backends run it too, so that each operator is judged on its
    /// own. `Err`: why there is none (the judgement falls back to the
    /// graph's outputs).
    pub observed: Result<std::sync::Arc<Observed>, String>,
    /// The case's cells in a backend's judged-coverage map: what each of its
    /// operators is (type row, attribute and data classes, as the in-tree
    /// executor saw them) and its constructs ([`spvgraph_oracle::cells`]).
    pub cells: std::sync::Arc<CaseCells>,
}

/// A case's observed form, ready to run.
#[derive(Clone, Debug)]
pub struct Observed {
    /// The form.
    pub form: ObservedForm,
    /// Its module's words.
    pub words: Vec<u32>,
}

impl Observed {
    /// The observed form of `request`'s graph, or why there is none.
    pub fn of(module: &Module, request: &OwnedExecRequest) -> Result<Observed, String> {
        let form = observed_form(module, request.entry_point.as_deref()).map_err(|e| e.to_string())?;
        let words = form.module.encode_words().map_err(|e| e.to_string())?;
        Ok(Observed { form, words })
    }

    /// The request that runs the form on the data of `request`.
    pub fn request<'a>(&'a self, request: &'a OwnedExecRequest) -> ExecRequest<'a> {
        ExecRequest { module: &self.words, ..request.request() }
    }
}

/// The fixed inputs of every case.
pub struct Hunter<'a> {
    /// Generator configuration.
    pub config: &'a Config,
    /// Probability that a case is near-valid.
    pub ratio: f64,
    /// The rules near-valid cases choose from.
    pub rules: &'a [RuleId],
    /// The oracles.
    pub oracles: &'a OracleSet,
    /// The first seed: case i uses seed `base_seed + i`.
    pub base_seed: u64,
    /// Hunt case seeds at which the in-tree validator is made to panic (tests only).
    pub inject_panic: &'a [u64],
    /// Whether backends also run each valid case's observed form, so that
    /// every operator is judged on its own (else only graph outputs are).
    pub observe: bool,
    /// The real networks every case is a neighbour of (`--profile
    /// networks`), instead of the generator's cases.
    pub networks: Option<&'a super::networks::NetworkSeeds>,
}

/// The disagreement a caught panic is.
pub fn panic_disagreement(c: Caught) -> Disagreement {
    let mut d = Disagreement::new(
        Kind::Panic,
        "spvgraph",
        format!("{} panicked at {}: {}", c.component, c.location, c.message),
    );
    d.discriminator = Some(format!("{} at {}", c.component, c.location));
    d.message = Some(c.message);
    d
}

fn roundtrip_disagreement(mode: &str, detail: String) -> Disagreement {
    let mut d = Disagreement::new(Kind::Roundtrip, "spvgraph", detail.clone());
    d.discriminator = Some(mode.to_string());
    d.message = Some(detail);
    d
}

impl Hunter<'_> {
    /// The rule case `seed` is planned to break, or `None` for a valid case:
    /// deterministic in the seed (and the rule list and ratio).
    pub fn plan(&self, seed: u64) -> Option<RuleId> {
        // A network's neighbours are valid cases: no near-valid ones.
        if self.networks.is_some() {
            return None;
        }
        let mut rng = SplitMix64::new(seed ^ 0x6875_6e74_5f70_6c61);
        if self.rules.is_empty() || !rng.chance(self.ratio) {
            return None;
        }
        self.rules.get(rng.below(self.rules.len() as u64) as usize).copied()
    }

    /// Generates case `index` and runs the first phase on it; returns it with
    /// what the sampled oracles will need, when any of them takes it.
    pub fn run(&self, index: u64) -> (CaseOutcome, Option<Pending>) {
        let seed = self.base_seed.wrapping_add(index);
        let planned_rule = self.plan(seed);
        let mut out = CaseOutcome { planned_rule, ..CaseOutcome::empty(index, seed) };
        match planned_rule {
            None if self.networks.is_some() => {
                if let Some(seeds) = self.networks {
                    self.network_case(seeds, &mut out);
                }
            }
            None => match guard("generator", || generate_from_seed(seed, self.config)) {
                Ok(case) => {
                    if let Some(e) = case.meta.internal_errors.first() {
                        let mut d = Disagreement::new(
                            Kind::GeneratorInvariant,
                            "spvgraph",
                            case.meta.internal_errors.join("; "),
                        );
                        d.operators = case.meta.ops.iter().copied().take(1).collect();
                        d.message = Some(e.clone());
                        out.disagreements.push(d);
                    }
                    match case.module.encode_words() {
                        Ok(w) => out.words = Some(w),
                        Err(e) => out.disagreements.push(roundtrip_disagreement(
                            "encode",
                            format!("the generated module does not encode: {e}"),
                        )),
                    }
                    out.subject = Subject::Valid(case);
                }
                Err(c) => out.disagreements.push(panic_disagreement(c)),
            },
            Some(rule) => match guard("near-valid generator", || near_valid_from_seed(seed, self.config, Some(rule))) {
                Ok(Ok(nv)) => {
                    out.words = Some(nv.words.clone());
                    out.target_env = nv.target_env;
                    out.profiles = nv.profiles.clone();
                    out.subject = Subject::NearValid(nv);
                }
                Ok(Err(e)) => out.unavailable = Some(e.to_string()),
                Err(c) => out.disagreements.push(panic_disagreement(c)),
            },
        }
        let Some(words) = out.words.clone() else { return (out, None) };
        self.check(&mut out, &words);
        let pending = self.pending(&mut out, words);
        (out, pending)
    }

    /// Round-trip and validators.
    pub(crate) fn check(&self, out: &mut CaseOutcome, words: &[u32]) {
        let near = matches!(out.subject, Subject::NearValid(_));
        match guard("round-trip", || roundtrip(words)) {
            Ok(rt) => {
                match &rt {
                    RoundTrip::Differs(d) => out.disagreements.push(roundtrip_disagreement("differs", d.clone())),
                    RoundTrip::Undecodable(d) if !near => out.disagreements.push(roundtrip_disagreement(
                        "undecodable",
                        format!("the generated module does not decode: {d}"),
                    )),
                    _ => {}
                }
                out.roundtrip = rt;
            }
            Err(c) => out.disagreements.push(panic_disagreement(c)),
        }
        let options = ValidateOptions::for_case(out.target_env, out.profiles.as_deref());
        let inject = self.inject_panic.contains(&out.seed);
        let mut validity = Vec::new();
        for v in &self.oracles.validators {
            let first = validity.is_empty();
            let start = std::time::Instant::now();
            let answer = guard("validator", || {
                #[allow(clippy::panic, reason = "a testing aid: the planted panic the guard must catch")]
                if inject && first {
                    panic!("injected panic (--inject-panic {})", out.seed);
                }
                v.validator().and_then(|x| x.validate(words, &options))
            });
            out.durations.push((v.name().to_string(), start.elapsed()));
            match answer {
                Ok(verdict) => {
                    out.answers.push((v.name().to_string(), Answer::of_verdict(&verdict)));
                    validity.push(ValidityAnswer { oracle: v.as_ref(), verdict });
                }
                Err(mut c) => {
                    c.component = "validator";
                    let mut d = panic_disagreement(c);
                    d.oracles = vec![v.name().to_string()];
                    out.disagreements.push(d);
                }
            }
        }
        // Readers take every case, valid or not: what a viewer owes an
        // invalid module is a clear error, and crashing on one is a finding.
        let mut readings = Vec::new();
        for r in &self.oracles.readers {
            let start = std::time::Instant::now();
            let answer = guard("reader", || r.reader().and_then(|x| x.read(words)));
            out.durations.push((r.name().to_string(), start.elapsed()));
            match answer {
                Ok(outcome) => {
                    out.answers.push((r.name().to_string(), Answer::of_reading(&outcome)));
                    readings.push(ReadingAnswer { oracle: r.as_ref(), subject: ReadSubject::Module(words), outcome });
                }
                Err(mut c) => {
                    c.component = "reader";
                    let mut d = panic_disagreement(c);
                    d.oracles = vec![r.name().to_string()];
                    out.disagreements.push(d);
                }
            }
        }
        let observations = Observations { validity, readings, module: Some(words), ..Observations::default() };
        out.disagreements.extend(judge(&out.expectation(), &observations));
    }

    /// Whether any sampled oracle takes this case, and if so, its request
    /// and the in-tree executor's outputs on it.
    pub(crate) fn pending(&self, out: &mut CaseOutcome, words: Vec<u32>) -> Option<Pending> {
        let valid = matches!(out.subject, Subject::Valid(_));
        let any_executor = self.oracles.executors.iter().any(|s| self.oracles.executor_takes(s, out.seed, valid));
        let any_producer = valid && self.oracles.producers.iter().any(|s| s.takes(out.seed));
        if !any_executor && !any_producer {
            return None;
        }
        let case = out.subject.case()?;
        // One entry point per case, chosen by the seed: several entry points
        // sharing a graph get their turn across cases.
        let k = (out.seed % case.entry_points.len().max(1) as u64) as usize;
        let ep = case.entry_points.get(k)?;
        let mut request = OwnedExecRequest {
            module: words,
            entry_point: Some(ep.name.clone()),
            inputs: ep.inputs.iter().map(|t| t.data.clone()).collect(),
            graph_constants: case.graph_constants.clone(),
        };
        // A near-valid mutation or a neighbour's shape change may change a
        // graph constant's or an input's type: the data the valid case had
        // must follow the module.
        if !valid || out.neighbour.is_some() {
            request.fit_to_module();
            // A neighbour whose shape change made an input too large to
            // fill has no data to run with: no backend gets it (else each
            // would answer an oracle error of ours).
            if valid && !request.fits_module() {
                return None;
            }
        }
        out.entry = Some(ep.name.clone());
        out.operators = graph_operators(&case.module, &ep.name);
        let mut facts = Vec::new();
        let reference = if valid {
            let start = std::time::Instant::now();
            let answer = guard("in-tree executor", || match Module::decode_words(&request.module) {
                Ok(module) => {
                    let (outputs, trace) = Executor::default().run_traced(
                        &module,
                        request.entry_point.as_deref(),
                        &request.inputs,
                        &request.graph_constants,
                    );
                    (spvgraph_oracle::exec::outcome_of(outputs), trace)
                }
                Err(e) => (Ok(ExecOutcome::Refused { kind: Refusal::Invalid, reason: e.to_string() }), Vec::new()),
            });
            out.durations.push(("in-tree executor".to_string(), start.elapsed()));
            match answer {
                Ok((o, trace)) => {
                    facts = trace;
                    out.answers.push(("in-tree executor".to_string(), Answer::of_outcome(&o)));
                    o.ok()
                }
                Err(c) => {
                    out.disagreements.push(panic_disagreement(c));
                    None
                }
            }
        } else {
            None
        };
        let features = spvgraph_oracle::features::detect_words(&request.module, Some(&request.request()));
        let cells = std::sync::Arc::new(case_cells(&facts, &features));
        let mlir = if any_producer {
            spvgraph_ir::mlir::module_to_mlir(&case.module, &ep.name, &case.graph_constants).ok()
        } else {
            None
        };
        let observed = match (valid && any_executor, self.observe) {
            (true, true) => Observed::of(&case.module, &request).map(std::sync::Arc::new),
            (true, false) => Err("not asked for (--no-observed-form)".to_string()),
            (false, _) => Err("not a valid case".to_string()),
        };
        Some(Pending { case: out.clone(), request, reference, mlir, observed, cells })
    }
}

/// The TOSA operators of the graph entry point `entry` runs, in opcode order.
pub fn graph_operators(module: &Module, entry: &str) -> Vec<TosaOp> {
    let a = spvgraph_ir::analysis::Analysis::new(module);
    let graph = a.graph_entry_points.iter().find_map(|&i| match module.insts.get(i) {
        Some(spvgraph_ir::Inst::GraphEntryPoint { graph, name, .. }) if name == entry => Some(*graph),
        _ => None,
    });
    let Some(graph) = graph else { return Vec::new() };
    let Some(view) = a.graph(graph) else { return Vec::new() };
    let mut ops: Vec<TosaOp> = view
        .body
        .iter()
        .filter_map(|&i| match module.insts.get(i) {
            Some(spvgraph_ir::Inst::Tosa { op, .. }) => Some(*op),
            _ => None,
        })
        .collect();
    ops.sort();
    ops.dedup();
    ops
}

/// Decode, re-encode and compare; render the text form (it must not panic).
pub fn roundtrip(words: &[u32]) -> RoundTrip {
    let module = match Module::decode_words(words) {
        Ok(m) => m,
        Err(e) => return RoundTrip::Undecodable(e.to_string()),
    };
    let again = match module.encode_words() {
        Ok(w) => w,
        Err(e) => return RoundTrip::Differs(format!("decodes but does not encode: {e}")),
    };
    if let Some(at) = first_difference(words, &again) {
        return RoundTrip::Differs(format!(
            "re-encoding differs at word {at} ({}; {} words in, {} out)",
            instruction_at(words, at),
            words.len(),
            again.len()
        ));
    }
    let _ = spvgraph_ir::text::disassemble(&module);
    RoundTrip::Identical
}

/// The opcode name of the instruction holding word `offset`.
fn instruction_at(words: &[u32], offset: usize) -> String {
    if offset < 5 {
        return "the header".into();
    }
    let mut at = 5usize;
    while let Some(&first) = words.get(at) {
        let count = (first >> 16) as usize;
        if count == 0 {
            break;
        }
        if offset < at + count {
            return spvgraph_ir::opname::opcode_name((first & 0xffff) as u16);
        }
        at += count;
    }
    "past the last instruction".into()
}

/// Per-oracle answers for the summary: name → answer label → count.
pub type AnswerCounts = BTreeMap<String, BTreeMap<String, u64>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instruction_holding_a_word_is_named() {
        // Header, OpCapability Shader (2 words), OpMemoryModel (3 words).
        let words = [0x0723_0203, 0x10600, 0, 9, 0, (2 << 16) | 17, 1, (3 << 16) | 14, 0, 1];
        assert_eq!(instruction_at(&words, 6), "OpCapability");
        assert_eq!(instruction_at(&words, 9), "OpMemoryModel");
        assert_eq!(instruction_at(&words, 2), "the header");
    }

    #[test]
    fn a_sample_module_round_trips_and_lists_its_operators() {
        let m = spvgraph_ir::samples::elementwise_chain(3);
        let w = m.encode_words().expect("encodes");
        assert_eq!(roundtrip(&w), RoundTrip::Identical);
        // The list is sorted and deduplicated; the order of the enum decides, not the graph.
        let mut expected = vec![TosaOp::Abs, TosaOp::Add, TosaOp::Sub];
        expected.sort();
        assert_eq!(graph_operators(&m, "chain"), expected);
        assert!(matches!(roundtrip(&w[..3]), RoundTrip::Undecodable(_)));
    }
}

//! `spvgraph diff` as a library: one module, every oracle, one judgement.
//!
//! A `.spv` file goes to every validator and every execution backend; the
//! in-tree executor's outputs are the reference, and the referee's precise
//! run settles output disagreements. What the module is expected to be and
//! its inputs come from the case manifest next to it (`STEM.json`, as the
//! generator, the corpus and hunt findings write it), from explicit input
//! files, or, for a module without either, from inputs generated so that the
//! in-tree executor finds every result defined.

use crate::hunt::case::{graph_operators, Answer, Observed};
use crate::networks;
use anyhow::{anyhow, bail, Context};
use serde_json::Value;
use spvgraph_generator::files::Manifest;
use spvgraph_generator::prng::SplitMix64;
use spvgraph_ir::elem::{ElemType, Profile};
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use spvgraph_oracle::exec::{self, Executor, Port};
use spvgraph_oracle::forms::run::{
    answers as form_answers, choose, in_tree_reference, observed_answer, run_cases, CaseRuns, FormCase,
};
use spvgraph_oracle::judge::{
    check_production, judge, judge_counted, Coverage, Disagreement, Disposition, DocumentedPolicy, ExecAnswer,
    Expectation, Observations, ProductionAnswer, ReadSubject, ReadingAnswer, ValidityAnswer,
};
use spvgraph_oracle::oracle::{
    Capability, ExecOutcome, Oracle, OracleError, OwnedExecRequest, ProduceOutcome, ProduceRequest, Refusal,
    ValidateOptions, Verdict,
};
use spvgraph_oracle::produced::InterfaceMap;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// What to run a module with.
#[derive(Clone, Debug, Default)]
pub struct DiffInputs {
    /// The entry point (default: the first).
    pub entry: Option<String>,
    /// Input files in InputIndex order (arrays flattened in ElementIndex order).
    pub inputs: Vec<PathBuf>,
    /// Graph-constant files by GraphConstantID.
    pub graph_constants: BTreeMap<u32, PathBuf>,
    /// The target environment (default: the manifest's, else vulkan1.3).
    pub target_env: Option<TargetEnv>,
    /// Where to write each executor's outputs, as `DIR/ORACLE/out<j>.npy`
    /// (the in-tree executor's under `in-tree`), to look at them.
    pub save_outputs: Option<PathBuf>,
    /// What the module is expected to be, overriding its manifest: `valid`,
    /// `invalid`, or a rule name (`--expect`).
    pub expect: Option<String>,
    /// Judge consumers' answers on invalid modules as findings (`--strict-consumers`).
    pub strict_consumers: bool,
    /// Equivalent forms of a valid module each backend also runs (`--forms`).
    pub forms: usize,
    /// Whether a valid module a backend refuses or dies on runs again in a
    /// form without known-refused constructs (`--rescue`).
    pub rescue: bool,
}

/// Parses `--expect`: `valid`, `invalid` or a rule of the catalogue.
pub fn parse_expect(text: &str) -> anyhow::Result<Expectation> {
    match text.trim() {
        "valid" => Ok(Expectation::Valid),
        "invalid" => Ok(Expectation::Invalid { rules: Vec::new(), mutator: None }),
        name => match RuleId::from_name(name) {
            Some(rule) if rule.is_must_reject() => Ok(Expectation::Breaks { rule, mutator: None }),
            Some(rule) => {
                bail!("--expect {name}: {rule} is not a must-reject rule (a module breaking it may be valid)")
            }
            None => bail!("--expect {name}: expected valid, invalid or a must-reject rule of the catalogue"),
        },
    }
}

/// Writes `outcome`'s outputs, when it has some, as `dir/oracle/out<j>.npy`.
fn save_outputs(dir: &Path, oracle: &str, outcome: &Result<ExecOutcome, OracleError>) -> anyhow::Result<()> {
    let Ok(ExecOutcome::Outputs(outputs)) = outcome else { return Ok(()) };
    let dir = dir.join(oracle);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (j, t) in outputs.iter().enumerate() {
        t.write_npy(&dir.join(format!("out{j}.npy")))?;
    }
    Ok(())
}

/// Where the inputs came from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputSource {
    /// `--input` / `--graph-constant` files.
    Files,
    /// The case manifest next to the module.
    Manifest(String),
    /// A network's manifest next to the network file: its fixed inputs.
    Network(String),
    /// Generated (seed, attempts until every result was defined).
    Generated {
        /// Attempts made.
        attempts: u32,
    },
    /// The graph has no inputs.
    None,
}

/// What every oracle answered about one module, and the disagreements.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DiffReport {
    /// The module file.
    pub file: String,
    /// The expectation (`valid`, `invalid`, or the rule it breaks).
    pub expect: String,
    /// Where the expectation comes from: `--expect`, the manifest, or the
    /// in-tree validator's verdict (no manifest).
    pub expect_source: String,
    /// The entry point executors ran.
    pub entry: Option<String>,
    /// Where the inputs came from.
    pub inputs: InputSource,
    /// Notes on how the inputs were read (rank-0 arrays reshaped, ...).
    pub notes: Vec<String>,
    /// Each oracle's answers, in the order they ran.
    pub answers: Vec<(String, Answer)>,
    /// Each oracle's version.
    pub versions: BTreeMap<String, String>,
    /// The disagreements.
    pub disagreements: Vec<Disagreement>,
    /// What was judged of each backend's run: operators judged on their
    /// own, and those not judged by reason.
    pub coverage: Vec<Coverage>,
    /// Wall time spent in each oracle, in seconds (validation, runs of
    /// every form, production), and in the judgement (where the referee's
    /// precise runs happen); the producer's first conversion of a network
    /// file is `NAME (module)`.
    pub seconds: BTreeMap<String, f64>,
}

/// How a disagreement of a diff is shown, from its
/// [`Disposition`](spvgraph_oracle::judge::Disposition): the file's own
/// documented bug is a disagreement to show (a corpus finding diffed), a
/// documented one the case merely meets is listed apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown<'a> {
    /// An undocumented disagreement: it fails the command.
    Disagree,
    /// The documented bug of the file itself.
    OwnBug,
    /// Another documented bug the case meets (its minimal module).
    Known(&'a str),
    /// Outside a tool's contract.
    Note,
    /// Charged to no oracle.
    Unjudged,
}

impl DiffReport {
    /// How `d`, one of this report's disagreements, is shown.
    pub fn shown<'d>(&self, d: &'d Disagreement) -> Shown<'d> {
        match d.disposition(DocumentedPolicy::Known) {
            Disposition::Finding => Shown::Disagree,
            Disposition::Documented(doc) if same_finding(&self.file, &doc.finding) => Shown::OwnBug,
            Disposition::Documented(doc) => Shown::Known(&doc.finding),
            Disposition::Note => Shown::Note,
            Disposition::Unjudged => Shown::Unjudged,
        }
    }

    /// Whether a disagreement fails the command: one that is neither
    /// documented, nor a note, nor charged to no oracle.
    pub fn fails(&self) -> bool {
        self.disagreements.iter().any(|d| d.disposition(DocumentedPolicy::Known).counts())
    }
}

/// Whether the documented finding `finding` (a repository path such as
/// `corpus/findings/X.spv`) is the file diffed, or a variant of it
/// (`X.produced.spv`, `X.orig.spv`).
fn same_finding(file: &str, finding: &str) -> bool {
    let stem = |p: &str| {
        let name = Path::new(p).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        name.split('.').next().unwrap_or_default().to_string()
    };
    stem(file) == stem(finding)
}

/// What lies beside a module as `STEM.json`.
enum Beside {
    /// Nothing (or nothing readable as JSON).
    Nothing,
    /// A case manifest: an object with a string `expect`, as every case
    /// manifest has (generated, corpus and hunt cases alike).
    Manifest(PathBuf, Value),
    /// Another tool's JSON (a scenario, a test descriptor): not read; the
    /// note says so.
    Foreign(String),
}

/// The case manifest `STEM.json` next to `file`, if there is one. A JSON
/// file of another shape there (scenario-runner's scenario, say) states no
/// expectation and no inputs: it is left alone, with a note.
fn manifest_of(file: &Path) -> Beside {
    let path = file.with_extension("json");
    let Ok(text) = std::fs::read_to_string(&path) else { return Beside::Nothing };
    match serde_json::from_str::<Value>(&text) {
        Ok(value) if value["expect"].is_string() => Beside::Manifest(path, value),
        Ok(_) => Beside::Foreign(format!(
            "{} is not a case manifest (no \"expect\"): ignored, so the module alone sets the expectation",
            path.display()
        )),
        Err(e) => Beside::Foreign(format!("{} is not JSON ({e}): ignored", path.display())),
    }
}

/// The expectation and validation options a manifest states (`None`: no
/// manifest, so nothing is stated).
fn expectation_of(manifest: Option<&Value>) -> (Option<Expectation>, Option<TargetEnv>, Option<Vec<Profile>>) {
    let Some(m) = manifest else { return (None, None, None) };
    let nv = &m["near_valid"];
    let env = nv["target_env"].as_str().and_then(TargetEnv::parse);
    let profiles = nv["profiles"]
        .as_array()
        .map(|ps| ps.iter().filter_map(|p| p.as_str().and_then(Profile::from_name)).collect::<Vec<_>>());
    let expect = match m["expect"].as_str() {
        // A corpus finding of a validator's miss says how it was broken.
        Some("invalid") => Expectation::Invalid {
            rules: Vec::new(),
            mutator: nv["mutator"].as_str().or(m["mutator"].as_str()).map(str::to_string),
        },
        Some(name) => match RuleId::from_name(name) {
            Some(rule) => Expectation::Breaks { rule, mutator: nv["mutator"].as_str().map(str::to_string) },
            None => Expectation::Valid,
        },
        None => Expectation::Valid,
    };
    (Some(expect), env, profiles)
}

/// The expectation as the table shows it.
fn expect_text(e: &Expectation) -> String {
    match e {
        Expectation::Valid => "valid".to_string(),
        Expectation::Breaks { rule, .. } => rule.name().to_string(),
        Expectation::Invalid { rules, .. } if rules.is_empty() => "invalid".to_string(),
        Expectation::Invalid { rules, .. } => {
            format!("invalid ({})", rules.iter().map(|r| r.name()).collect::<Vec<_>>().join(", "))
        }
    }
}

/// Reads one input file as `port`'s element type, checking its shape.
fn read_port(path: &Path, port: &Port) -> anyhow::Result<TensorData> {
    let t = TensorData::read_npy(path, port.elem).map_err(|e| anyhow!("{e}"))?;
    if t.shape() != port.shape.as_slice() {
        bail!("{}: shape {:?}, but {} needs {:?}", path.display(), t.shape(), port.describe("input"), port.shape);
    }
    Ok(t)
}

/// The most elements a generated input tensor may have (2 GiB of `u64` bits).
const MAX_GENERATED_ELEMENTS: usize = 1 << 28;

/// Small values of `port`'s type: integers in −4..=4, floats in −2..2
/// (bf16/fp8 from the same range), bools at random.
fn random_tensor(port: &Port, rng: &mut SplitMix64, scale: f64) -> anyhow::Result<TensorData> {
    // A module may declare any shape: refuse to generate what cannot be held.
    let n = spvgraph_ir::count::checked_len(&port.shape).filter(|&n| n <= MAX_GENERATED_ELEMENTS).ok_or_else(|| {
        anyhow!(
            "{} has {:?} elements: too many to generate inputs for (give --input)",
            port.describe("input"),
            port.shape
        )
    })?;
    let bits: Vec<u64> = (0..n)
        .map(|_| match port.elem {
            ElemType::Bool => rng.below(2),
            e if e.is_float() => {
                let v = ((rng.below(1 << 20) as f64 / (1 << 19) as f64) - 1.0) * 2.0 * scale;
                spvgraph_generator::floats::encode(e, v)
            }
            _ => (((rng.below(9) as f64 - 4.0) * scale).round() as i64) as u64,
        })
        .collect();
    TensorData::from_bits(port.elem, &port.shape, &bits).map_err(|e| anyhow!("{e}"))
}

/// Data known for a module before any is drawn: a producer's graph
/// constants, and a network's fixed inputs (already in the module's input
/// order).
#[derive(Default)]
struct Known<'a> {
    /// The producer's graph-constant data by GraphConstantID.
    graph_constants: Option<&'a BTreeMap<u32, TensorData>>,
    /// The network's inputs and the manifest they come from.
    inputs: Option<(Vec<TensorData>, String)>,
}

/// The request for `module`: inputs from files, a network's manifest, the
/// case manifest, or generated. Graph constants not given as files are the
/// producer's when it made the module: only the inputs are ever drawn for a
/// produced module, and they are checked against its real constants.
fn request(
    file: &Path,
    words: &[u32],
    module: &Module,
    manifest: Option<&(PathBuf, Value)>,
    given: &DiffInputs,
    known: Known<'_>,
) -> anyhow::Result<(OwnedExecRequest, InputSource)> {
    let interface = exec::interface(module, given.entry.as_deref()).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let entry = interface.entry_point.clone().or_else(|| given.entry.clone());
    let mut req = OwnedExecRequest {
        module: words.to_vec(),
        entry_point: entry.clone(),
        inputs: Vec::new(),
        graph_constants: BTreeMap::new(),
    };
    let producer_constant = |index: u32| known.graph_constants.and_then(|c| c.get(&index)).cloned();
    if !given.inputs.is_empty() || !given.graph_constants.is_empty() {
        if given.inputs.len() != interface.inputs.len() {
            let ports: Vec<String> = interface.inputs.iter().map(|p| p.describe("input")).collect();
            bail!(
                "{}: {} --input file(s) given; the graph takes {} ({})",
                file.display(),
                given.inputs.len(),
                interface.inputs.len(),
                ports.join("; ")
            );
        }
        for (path, port) in given.inputs.iter().zip(&interface.inputs) {
            req.inputs.push(read_port(path, port)?);
        }
        for port in &interface.graph_constants {
            // A file given for a constant overrides the producer's data.
            let data = match (given.graph_constants.get(&port.index), producer_constant(port.index)) {
                (Some(path), _) => read_port(path, port)?,
                (None, Some(t)) => t,
                (None, None) => bail!(
                    "no data for graph constant {}: pass --graph-constant {}=FILE.npy ({} {:?})",
                    port.index,
                    port.index,
                    port.elem,
                    port.shape
                ),
            };
            req.graph_constants.insert(port.index, data);
        }
        return Ok((req, InputSource::Files));
    }
    let constants_known = interface.graph_constants.iter().all(|p| producer_constant(p.index).is_some());
    if let (Some((inputs, from)), true) = (known.inputs, constants_known) {
        req.inputs = inputs;
        req.graph_constants =
            interface.graph_constants.iter().filter_map(|p| Some((p.index, producer_constant(p.index)?))).collect();
        return Ok((req, InputSource::Network(from)));
    }
    if let Some((mpath, value)) = manifest {
        if let Ok(m) = serde_json::from_value::<Manifest>(value.clone()) {
            let dir = mpath.parent().unwrap_or(Path::new("."));
            let k = m.entry_points.iter().position(|e| Some(&e.name) == entry.as_ref()).unwrap_or(0);
            if let Some(ep) = m.entry_points.get(k) {
                for (name, port) in ep.inputs.iter().zip(&interface.inputs) {
                    req.inputs.push(read_port(&dir.join(name), port)?);
                }
                for port in &interface.graph_constants {
                    if let Some(name) = m.graph_constants.get(&port.index) {
                        req.graph_constants.insert(port.index, read_port(&dir.join(name), port)?);
                    }
                }
                if req.inputs.len() == interface.inputs.len()
                    && req.graph_constants.len() == interface.graph_constants.len()
                {
                    return Ok((req, InputSource::Manifest(mpath.display().to_string())));
                }
            }
        }
    }
    if interface.inputs.is_empty() && interface.graph_constants.is_empty() {
        return Ok((req, InputSource::None));
    }
    // Generated: random small values, shrinking towards zero until the
    // in-tree executor finds every result defined. A producer's constants
    // are its data (weights, RESCALE multipliers and shifts): they are kept,
    // so that definedness is checked against the graph that will run.
    let mut rng = SplitMix64::new(0x5eed);
    for attempt in 1..=8u32 {
        let scale = 1.0 / f64::from(1u32 << (attempt - 1).min(6));
        req.inputs = interface.inputs.iter().map(|p| random_tensor(p, &mut rng, scale)).collect::<Result<_, _>>()?;
        req.graph_constants = interface
            .graph_constants
            .iter()
            .map(|p| match producer_constant(p.index) {
                Some(t) => Ok((p.index, t)),
                None => random_tensor(p, &mut rng, scale).map(|t| (p.index, t)),
            })
            .collect::<Result<_, _>>()?;
        match Executor::default().execute(&req.request()) {
            Ok(ExecOutcome::Refused { kind: Refusal::Unpredictable, .. }) => continue,
            _ => return Ok((req, InputSource::Generated { attempts: attempt })),
        }
    }
    bail!("{}: no generated inputs keep every result defined; pass them with --input", file.display())
}

/// Adds the time since `t0` to `name`'s entry.
fn add_time(seconds: &mut BTreeMap<String, f64>, name: &str, t0: Instant) {
    *seconds.entry(name.to_string()).or_default() += t0.elapsed().as_secs_f64();
}

/// How the in-tree executor's outputs of a network compare with the TOSA
/// reference model's outputs its manifest stores (computed on the
/// flatbuffer itself, before any producer): one note per output. These are
/// notes: the judgement settles any difference with the live referee.
fn expected_notes(
    path: &Path,
    net: &networks::Network,
    produced: &Produced,
    module: Option<&Module>,
    outputs: &[TensorData],
) -> Vec<String> {
    let (expected, Some(module)) = (net.expected(), module) else { return Vec::new() };
    let expected = match expected {
        Ok(e) => e,
        Err(e) => return vec![format!("{}: the expected outputs do not load: {e:#}", path.display())],
    };
    let Ok(ports) = exec::interface(module, Some(&produced.interface.entry_point)) else { return Vec::new() };
    let mapped = match networks::map_outputs(&produced.interface, &ports.outputs, &expected) {
        Ok(m) => m,
        Err(e) => return vec![format!("{}: the expected outputs do not map onto the module: {e:#}", path.display())],
    };
    let mut notes = Vec::new();
    for (j, (want, got)) in mapped.iter().zip(outputs).enumerate() {
        let Some(want) = want else { continue };
        notes.push(format!(
            "out{j} vs the network's expected output (tosa_reference_model on the flatbuffer): {}",
            networks::difference(want, got)
        ));
    }
    notes
}

/// A module a producer made of a network file (TOSA MLIR or a flatbuffer).
struct Produced {
    /// The module's bytes.
    bytes: Vec<u8>,
    /// Its graph-constant data by GraphConstantID.
    graph_constants: BTreeMap<u32, TensorData>,
    /// Where each source argument and result went.
    interface: InterfaceMap,
    /// The producer's name.
    producer: String,
    /// The container it came in (model-converter's VGF), for readers.
    container: Option<Vec<u8>>,
}

/// What the first producer among `oracles` made of the TOSA MLIR in `file`
/// (a `.mlir` file, or a TOSA flatbuffer read back by `tosa-opt`, either
/// possibly compressed: [`networks::graph_format`]), without debug
/// information: the module's bytes, its graph-constant data and interface
/// map, or a report of the producer's failure (which is the finding).
fn produce_from(file: &Path, oracles: &[Arc<dyn Oracle>]) -> anyhow::Result<Result<Produced, DiffReport>> {
    let producer = oracles.iter().find(|o| o.capabilities().contains(&Capability::Produce)).with_context(|| {
        format!("{}: a TOSA network file needs a producer among the oracles (model-converter)", file.display())
    })?;
    let mlir = networks::mlir_of(file, networks::tosa_opt().as_deref())?;
    let name = producer.name().to_string();
    let outcome = producer.producer().and_then(|p| p.produce(&ProduceRequest { mlir: &mlir, debug_info: false }));
    match &outcome {
        Ok(ProduceOutcome::Module { words, graph_constants, interface, container, .. }) => {
            let bytes = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            return Ok(Ok(Produced {
                bytes,
                graph_constants: graph_constants.clone(),
                interface: interface.clone(),
                producer: name,
                container: container.clone(),
            }));
        }
        // Nothing was checked: no verdict, and no exit status that says "agrees".
        Err(e @ (OracleError::Unavailable { .. } | OracleError::Unsupported { .. })) => {
            bail!("{}: {name} cannot produce a module: {e}", file.display())
        }
        Ok(ProduceOutcome::Rejected { .. } | ProduceOutcome::Abnormal { .. }) | Err(_) => {}
    }
    let answers = vec![(name.clone(), Answer::of_production(&outcome))];
    // The one judgement decides the kind, and whether the producer's
    // documented discrepancies explain it.
    let production = ProductionAnswer {
        producer: producer.as_ref(),
        debug_info: false,
        outcome,
        validity: Vec::new(),
        outputs: None,
    };
    let observations = Observations { productions: vec![production], ..Observations::default() };
    let disagreements = judge(&Expectation::Valid, &observations);
    Ok(Err(DiffReport {
        file: file.display().to_string(),
        expect: "valid".to_string(),
        expect_source: "produced from TOSA MLIR".to_string(),
        entry: None,
        inputs: InputSource::None,
        notes: Vec::new(),
        answers,
        versions: BTreeMap::from([(name.clone(), producer.version().unwrap_or_else(|| "unknown".into()))]),
        disagreements,
        coverage: Vec::new(),
        seconds: BTreeMap::new(),
    }))
}

/// Runs every oracle of `oracles` on the module in `file` and judges. A
/// network file (`.mlir`, or a `.tosa` flatbuffer; either may be `.xz` or
/// `.gz`) is first converted by the producer among the oracles, and the
/// module it makes goes to the others: inputs from `--input`, else the
/// network's manifest next to it ([`networks::manifest_path`]), else
/// generated; graph constants from the producer unless given.
pub fn diff_module(file: &Path, oracles: &[Arc<dyn Oracle>], given: &DiffInputs) -> anyhow::Result<DiffReport> {
    let is_mlir = networks::graph_format(file).is_some();
    let started = Instant::now();
    let (bytes, produced) = if is_mlir {
        match produce_from(file, oracles)? {
            Ok(p) => (p.bytes.clone(), Some(p)),
            Err(report) => return Ok(report),
        }
    } else {
        (std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?, None)
    };
    let module_seconds = started.elapsed().as_secs_f64();

    // A case manifest describes the case's own module, not a producer's; a
    // network's manifest gives the network's inputs and expected outputs.
    let beside = if is_mlir { Beside::Nothing } else { manifest_of(file) };
    let (manifest, foreign) = match beside {
        Beside::Manifest(p, v) => (Some((p, v)), None),
        Beside::Foreign(note) => (None, Some(note)),
        Beside::Nothing => (None, None),
    };
    // A hunt finding's `STEM.mlir` has the case's own manifest beside it,
    // not a network's: it states nothing about the produced module.
    let network = match (is_mlir, networks::manifest_path(file)) {
        (true, Some(path)) if !matches!(manifest_of(&path), Beside::Manifest(..)) => {
            let m = networks::read_manifest(&path)?;
            Some((
                path.clone(),
                networks::Network { dir: path.parent().unwrap_or(Path::new(".")).to_path_buf(), manifest: m },
            ))
        }
        _ => None,
    };
    let (stated, env, profiles) = expectation_of(manifest.as_ref().map(|(_, v)| v));
    let (stated, mut expect_source) = match (&given.expect, stated) {
        (Some(text), _) => (Some(parse_expect(text)?), "--expect".to_string()),
        (None, Some(e)) => (Some(e), "the case manifest".to_string()),
        // A producer's module of valid TOSA is meant to be valid.
        (None, None) if is_mlir => (Some(Expectation::Valid), "produced from TOSA MLIR".to_string()),
        (None, None) => (None, String::new()),
    };
    let options = ValidateOptions {
        target_env: given.target_env.or(env).unwrap_or_default(),
        profiles: profiles.unwrap_or_else(|| Profile::ALL.to_vec()),
        ..ValidateOptions::default()
    };
    // Undecodable modules still go to the validators, as little-endian words.
    let (words, module) = match Module::decode_bytes(&bytes) {
        Ok(m) => (m.encode_words().unwrap_or_default(), Some(m)),
        Err(_) => (bytes.chunks(4).map(|c| c.iter().rev().fold(0u32, |a, &b| (a << 8) | u32::from(b))).collect(), None),
    };
    let mut report = DiffReport {
        file: file.display().to_string(),
        expect: String::new(),
        expect_source: String::new(),
        entry: None,
        inputs: InputSource::None,
        notes: Vec::new(),
        answers: Vec::new(),
        versions: oracles
            .iter()
            .map(|o| (o.name().to_string(), o.version().unwrap_or_else(|| "unknown".into())))
            .collect(),
        disagreements: Vec::new(),
        coverage: Vec::new(),
        seconds: BTreeMap::new(),
    };
    report.notes.extend(foreign);
    if let Some(p) = &produced {
        report.seconds.insert(format!("{} (module)", p.producer), module_seconds);
    }
    let mut observations =
        Observations { module: Some(&words), strict_consumers: given.strict_consumers, ..Observations::default() };
    for o in oracles.iter().filter(|o| o.capabilities().contains(&Capability::Validate)) {
        let t0 = Instant::now();
        let verdict = o.validator().and_then(|v| v.validate(&words, &options));
        add_time(&mut report.seconds, o.name(), t0);
        report.answers.push((o.name().to_string(), Answer::of_verdict(&verdict)));
        observations.validity.push(ValidityAnswer { oracle: o.as_ref(), verdict });
    }
    // Readers read the module; of a `.mlir` file, the producer's module and
    // the container it came in.
    for o in oracles.iter().filter(|o| o.capabilities().contains(&Capability::Describe)) {
        let outcome = o.reader().and_then(|r| r.read(&words));
        report.answers.push((o.name().to_string(), Answer::of_reading(&outcome)));
        let subject = match &produced {
            None => ReadSubject::Module(&words),
            Some(p) => ReadSubject::Produced {
                producer: p.producer.clone(),
                words: words.clone(),
                graph_constants: p.graph_constants.clone(),
                container: false,
            },
        };
        observations.readings.push(ReadingAnswer { oracle: o.as_ref(), subject, outcome });
        if let Some(p) = &produced {
            if let Some(bytes) = &p.container {
                let outcome = o.reader().and_then(|r| r.read_container(bytes));
                report.answers.push((format!("{} ({} container)", o.name(), p.producer), Answer::of_reading(&outcome)));
                let subject = ReadSubject::Produced {
                    producer: p.producer.clone(),
                    words: words.clone(),
                    graph_constants: p.graph_constants.clone(),
                    container: true,
                };
                observations.readings.push(ReadingAnswer { oracle: o.as_ref(), subject, outcome });
            }
        }
    }
    // Without a stated expectation, the in-tree validator's verdict is it
    // (and the rules it names fill in an "invalid" without rules).
    let in_tree_verdict = observations
        .validity
        .iter()
        .find(|a| a.oracle.name() == spvgraph_oracle::registry::IN_TREE)
        .and_then(|a| a.verdict.as_ref().ok());
    let in_tree_rules = |v: &Verdict| match v {
        Verdict::Valid => Vec::new(),
        Verdict::Invalid(ds) => {
            let mut rules: Vec<RuleId> = Vec::new();
            for r in ds.iter().filter_map(|d| d.rule).filter(|r| r.is_must_reject()) {
                if !rules.contains(&r) {
                    rules.push(r);
                }
            }
            rules
        }
    };
    let expectation = match (stated, in_tree_verdict) {
        (Some(Expectation::Invalid { rules, mutator }), Some(v)) if rules.is_empty() => {
            Expectation::Invalid { rules: in_tree_rules(v), mutator }
        }
        (Some(e), _) => e,
        (None, Some(v)) => {
            expect_source = "the in-tree validator's verdict (no manifest)".to_string();
            match v {
                Verdict::Valid => Expectation::Valid,
                Verdict::Invalid(_) => Expectation::Invalid { rules: in_tree_rules(v), mutator: None },
            }
        }
        (None, None) => {
            expect_source = "assumed (no manifest, no in-tree validator)".to_string();
            Expectation::Valid
        }
    };
    report.expect = expect_text(&expectation);
    report.expect_source = expect_source;
    let executors: Vec<&Arc<dyn Oracle>> = oracles
        .iter()
        .filter(|o| o.capabilities().contains(&Capability::Execute) && o.name() != spvgraph_oracle::registry::IN_TREE)
        .collect();
    let runs_in_tree = oracles.iter().any(|o| o.name() == spvgraph_oracle::registry::IN_TREE)
        || oracles.iter().any(|o| o.capabilities().contains(&Capability::Produce));
    let mut request_owned = None;
    // A module without a graph entry point (a shader using tensors) has
    // nothing to run: the validators' verdicts are all there is to judge.
    let has_graph =
        module.as_ref().is_some_and(|m| m.insts.iter().any(|i| matches!(i, spvgraph_ir::Inst::GraphEntryPoint { .. })));
    if module.is_some() && !has_graph {
        report.notes.push("no OpGraphEntryPointARM: nothing to run, only validated".to_string());
    }
    if let (Some(module), false, true) = (&module, executors.is_empty() && !runs_in_tree, has_graph) {
        let mut known = Known::default();
        if let Some(p) = &produced {
            report.notes.push(format!("the module {} made of {}", p.producer, file.display()));
            known.graph_constants = Some(&p.graph_constants);
            if let Some((path, net)) = &network {
                let ports = exec::interface(module, Some(&p.interface.entry_point))
                    .map_err(|e| anyhow!("{}: {e}", file.display()))?;
                let inputs = net.inputs()?;
                let mapped = networks::map_inputs(&p.interface, &ports.inputs, &inputs)
                    .with_context(|| format!("{}: the network's inputs", path.display()))?;
                known.inputs = Some((mapped, path.display().to_string()));
            }
        }
        let (req, source) = request(file, &words, module, manifest.as_ref(), given, known)?;
        report.entry = req.entry_point.clone();
        report.inputs = source;
        observations.operators = req.entry_point.as_deref().map(|e| graph_operators(module, e)).unwrap_or_default();
        request_owned = Some(req);
    }
    let observed = match (&module, &request_owned) {
        (Some(m), Some(req)) => Observed::of(m, req),
        _ => Err("no module to observe".to_string()),
    };
    if let Some(req) = &request_owned {
        let request = req.request();
        if expectation == Expectation::Valid {
            let t0 = Instant::now();
            let reference = Executor::default().execute(&request);
            add_time(&mut report.seconds, "in-tree executor", t0);
            if let Some(dir) = &given.save_outputs {
                save_outputs(dir, spvgraph_oracle::registry::IN_TREE, &reference)?;
            }
            report.answers.push(("in-tree executor".to_string(), Answer::of_outcome(&reference)));
            if let (Some((path, net)), Some(p), Ok(ExecOutcome::Outputs(outputs)), InputSource::Network(_)) =
                (&network, &produced, &reference, &report.inputs)
            {
                report.notes.extend(expected_notes(path, net, p, module.as_ref(), outputs));
            }
            observations.reference = reference.ok();
        }
        // Equivalent forms of a valid module that ran on the in-tree
        // executor: every backend runs the same ones (no skipping of
        // documented constructs: diff is where they are shown).
        let valid_run = matches!(observations.reference, Some(ExecOutcome::Outputs(_)));
        let forms = if valid_run && given.forms > 0 { choose(req, 0, given.forms, |_| false) } else { Vec::new() };
        let rescue = valid_run && given.rescue;
        let references: Vec<Option<ExecOutcome>> = forms.iter().map(in_tree_reference).collect();
        let mut all_runs: Vec<(&dyn Oracle, CaseRuns)> = Vec::new();
        for o in &executors {
            // With a valid case, the observed form goes in the same batch:
            // every operator is then judged on its own.
            let form = observed.as_ref().ok().filter(|_| expectation == Expectation::Valid);
            let observed_request = form.map(|f| OwnedExecRequest { module: f.words.clone(), ..req.clone() });
            let case = FormCase { request: req, forms: forms.clone(), rescue, observed: observed_request };
            let t0 = Instant::now();
            let executor = o.executor()?;
            let runs = run_cases(&[case], &mut |requests| executor.execute_batch(requests))
                .pop()
                .ok_or_else(|| anyhow!("{} gave no answer", o.name()))?;
            add_time(&mut report.seconds, o.name(), t0);
            let outcome = runs.plain.clone();
            if let Some(dir) = &given.save_outputs {
                save_outputs(dir, o.name(), &outcome)?;
            }
            report.answers.push((o.name().to_string(), Answer::of_outcome(&outcome)));
            for f in &runs.forms {
                report.answers.push((format!("{} ({})", o.name(), f.form.label()), Answer::of_outcome(&f.outcome)));
            }
            if let Some(r) = &runs.rescue {
                let label = format!("{} (rescue: {})", o.name(), r.form.label());
                report.answers.push((label, Answer::of_outcome(&r.outcome)));
            }
            if let (Some(_), Some(outcome)) = (form, &runs.observed) {
                if let Some(dir) = &given.save_outputs {
                    save_outputs(dir, &format!("{}.observed", o.name()), outcome)?;
                }
                report.answers.push((format!("{} (observed form)", o.name()), Answer::of_outcome(outcome)));
            }
            if let Some(r) = &runs.rescue_observed {
                if let Some(dir) = &given.save_outputs {
                    save_outputs(dir, &format!("{}.rescue.observed", o.name()), &r.outcome)?;
                }
                let label = format!("{} (observed form of the rescue)", o.name());
                report.answers.push((label, Answer::of_outcome(&r.outcome)));
            }
            all_runs.push((o.as_ref(), runs));
        }
        let form = observed.as_ref().ok().filter(|_| expectation == Expectation::Valid).map(|f| &f.form);
        for (o, runs) in &all_runs {
            let observed = observed_answer(runs, form);
            observations.executions.push(ExecAnswer { oracle: *o, outcome: runs.plain.clone(), observed });
        }
        for (o, runs) in &all_runs {
            observations.forms.extend(form_answers(*o, runs, &references));
        }
        // Producers convert the graph's TOSA MLIR, without and with debug info.
        let producers = oracles.iter().filter(|o| o.capabilities().contains(&Capability::Produce));
        let validators: Vec<&dyn Oracle> =
            oracles.iter().filter(|o| o.capabilities().contains(&Capability::Validate)).map(|o| o.as_ref()).collect();
        let mlir = match (&module, &req.entry_point) {
            (Some(m), Some(e)) if expectation == Expectation::Valid => {
                spvgraph_ir::mlir::module_to_mlir(m, e, &req.graph_constants).ok()
            }
            _ => None,
        };
        for p in producers {
            let Some(mlir) = &mlir else {
                report.notes.push(format!("{}: no TOSA MLIR for this module (invalid, or not printable)", p.name()));
                continue;
            };
            for debug_info in [false, true] {
                let t0 = Instant::now();
                let outcome = p.producer().and_then(|x| x.produce(&ProduceRequest { mlir, debug_info }));
                add_time(&mut report.seconds, p.name(), t0);
                let label = if debug_info { format!("{} (debug info)", p.name()) } else { p.name().to_string() };
                report.answers.push((label, Answer::of_production(&outcome)));
                observations.productions.push(check_production(p.as_ref(), &validators, &request, debug_info, outcome));
            }
        }
        observations.request = Some(request);
        observations.referee =
            oracles.iter().find(|o| o.capabilities().contains(&Capability::Reference)).map(|o| o.as_ref());
        let t0 = Instant::now();
        let judgement = judge_counted(&expectation, &observations);
        add_time(&mut report.seconds, "judgement", t0);
        report.disagreements = judgement.disagreements;
        report.coverage = judgement.coverage;
    } else {
        report.disagreements = judge_counted(&expectation, &observations).disagreements;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_oracle::attribution::{Owner, Status};
    use spvgraph_oracle::judge::{Documented, Kind, Severity};

    fn documented(finding: &str) -> Option<Documented> {
        Some(Documented {
            why: "known".into(),
            finding: finding.into(),
            owner: Owner::SpirvTools,
            status: Status::Open,
            upstream: None,
            features: Vec::new(),
        })
    }

    fn report(disagreements: Vec<Disagreement>) -> DiffReport {
        DiffReport {
            file: "corpus/findings/spirv-val-x.spv".into(),
            expect: "valid".into(),
            expect_source: "--expect".into(),
            entry: None,
            inputs: InputSource::None,
            notes: Vec::new(),
            answers: Vec::new(),
            versions: BTreeMap::new(),
            disagreements,
            coverage: Vec::new(),
            seconds: BTreeMap::new(),
        }
    }

    #[test]
    fn each_disposition_is_shown_and_only_a_finding_fails() {
        let d = |kind| Disagreement::new(kind, "spirv-val", "detail");
        let mut own = d(Kind::RejectsValid);
        own.documented = documented("corpus/findings/spirv-val-x.spv");
        let mut other = d(Kind::RejectsValid);
        other.documented = documented("corpus/findings/spirv-val-y.spv");
        let mut note = d(Kind::AcceptsInvalid);
        note.severity = Severity::Note;
        let mut unjudged = d(Kind::CheckerDisagreesWithReference);
        unjudged.oracles.clear();
        let quiet = report(vec![own.clone(), other.clone(), note.clone(), unjudged.clone()]);
        let shown: Vec<Shown<'_>> = quiet.disagreements.iter().map(|x| quiet.shown(x)).collect();
        assert_eq!(
            shown,
            [Shown::OwnBug, Shown::Known("corpus/findings/spirv-val-y.spv"), Shown::Note, Shown::Unjudged]
        );
        assert!(!quiet.fails());
        let failing = report(vec![own, d(Kind::RejectsValid)]);
        assert_eq!(failing.shown(&failing.disagreements[1]), Shown::Disagree);
        assert!(failing.fails());
    }
}

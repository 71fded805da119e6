//! The uniform oracle interface: every in-tree or external oracle answers the
//! same questions (is this module valid? what are the outputs for these
//! inputs? what module do you make of this TOSA MLIR?) or says it cannot.
//! The judgement ([`crate::judge`]) never special-cases one.

use crate::attribution::{Owner, Status};
use crate::compliance::PreciseOutcome;
use crate::features::Feature;
pub use crate::produced::{InterfaceMap, ProducerNote};
use spvgraph_ir::elem::Profile;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// One problem an oracle reports about a module.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    /// The rule broken, when the oracle knows it (for spirv-val: the rule
    /// whose known message its message matches, a best guess).
    pub rule: Option<RuleId>,
    /// The TOSA operator concerned, when the rule is about one operator.
    pub operator: Option<TosaOp>,
    /// The oracle's message.
    pub message: String,
    /// Word offset of the instruction concerned, when known.
    pub word_offset: Option<usize>,
    /// The instruction concerned, as text, when known.
    pub instruction: Option<String>,
}

/// A validity verdict.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    /// The module is valid.
    Valid,
    /// The module is invalid, with at least one diagnostic.
    Invalid(Vec<Diagnostic>),
}

impl Verdict {
    /// True for [`Verdict::Valid`].
    pub fn is_valid(&self) -> bool {
        matches!(self, Verdict::Valid)
    }
}

/// TOSA level for level-limit checks (defined with the limits in `ir`).
pub use spvgraph_ir::tosa::Level;

/// Options for validation, mirroring spirv-val where it has them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ValidateOptions {
    /// Target environment (`vulkan1.3`, `spv1.6`, ...).
    pub target_env: TargetEnv,
    /// TOSA level.
    pub level: Level,
    /// Profiles and extensions the consumer supports.
    pub profiles: Vec<Profile>,
    /// A graph entry point to check the pipeline-creation rules for
    /// (`Severity::Pipeline`: what a Vulkan implementation checks when it
    /// creates a data-graph pipeline for that entry point). `None`, the
    /// default, checks module validity only. Pipeline findings never change
    /// the module's verdict; external validators ignore this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<String>,
}

impl Default for ValidateOptions {
    fn default() -> Self {
        ValidateOptions {
            target_env: TargetEnv::VULKAN_1_3,
            level: Level::EightK,
            profiles: Profile::ALL.to_vec(),
            pipeline: None,
        }
    }
}

impl ValidateOptions {
    /// The options a case is meant to be validated with: its target
    /// environment, and its profiles (`None`: every profile), the rest
    /// default (as a generated near-valid module states them).
    pub fn for_case(target_env: TargetEnv, profiles: Option<&[Profile]>) -> ValidateOptions {
        ValidateOptions {
            target_env,
            profiles: profiles.map_or_else(|| Profile::ALL.to_vec(), <[Profile]>::to_vec),
            ..ValidateOptions::default()
        }
    }
}

/// What to run.
#[derive(Clone, Copy, Debug)]
pub struct ExecRequest<'a> {
    /// The module's words.
    pub module: &'a [u32],
    /// Graph entry-point name; `None` = the first one.
    pub entry_point: Option<&'a str>,
    /// Inputs in InputIndex order (tensor-array inputs flattened in ElementIndex order).
    pub inputs: &'a [TensorData],
    /// Graph-constant data by GraphConstantID.
    pub graph_constants: &'a BTreeMap<u32, TensorData>,
}

/// An [`ExecRequest`] that owns its data, for requests that outlive the
/// case they came from (queued for a batch, read from files).
#[derive(Clone, Debug, PartialEq)]
pub struct OwnedExecRequest {
    /// The module's words.
    pub module: Vec<u32>,
    /// Graph entry-point name; `None` = the first one.
    pub entry_point: Option<String>,
    /// Inputs in InputIndex order (tensor arrays flattened in ElementIndex order).
    pub inputs: Vec<TensorData>,
    /// Graph-constant data by GraphConstantID.
    pub graph_constants: BTreeMap<u32, TensorData>,
}

impl OwnedExecRequest {
    /// The borrowed form the oracles take.
    pub fn request(&self) -> ExecRequest<'_> {
        ExecRequest {
            module: &self.module,
            entry_point: self.entry_point.as_deref(),
            inputs: &self.inputs,
            graph_constants: &self.graph_constants,
        }
    }
}

/// Why an oracle refused to produce outputs for a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Refusal {
    /// The oracle says the graph is invalid (tosa_error, a validation error).
    Invalid,
    /// The run would exceed the oracle's resource budget.
    OverBudget,
    /// A REQUIRE failed at run time (tosa_unpredictable): no defined result.
    Unpredictable,
    /// The backend refused to build or run the graph for a reason of its own
    /// (pipeline creation failed, the compiler reported an error, the run
    /// returned an error status): on a valid module this is a finding.
    Rejected,
    /// The backend does not implement an operator, type or construct the
    /// graph uses (IREE cannot lower it, a profile is missing): not a finding.
    Unsupported,
}

/// How a backend process ended abnormally. These are outcomes an oracle
/// reports about the backend, never failures of the harness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Abnormal {
    /// Killed by a signal (SIGSEGV, SIGABRT, SIGFPE, ...).
    Signal(i32),
    /// Still running at the time limit; killed.
    Timeout,
    /// Went over the memory limit; killed.
    OutOfMemory,
    /// Let a C++ exception out of a C API function; the harness caught it
    /// in a C++ frame of its own, where an application without one aborts.
    Threw,
}

impl std::fmt::Display for Abnormal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Abnormal::Signal(s) => write!(f, "killed by signal {s} ({})", signal_name(*s)),
            Abnormal::Timeout => f.write_str("timed out"),
            Abnormal::OutOfMemory => f.write_str("out of memory"),
            Abnormal::Threw => f.write_str("let a C++ exception out of a C API function"),
        }
    }
}

/// The conventional name of a POSIX signal number (`SIGSEGV`), or `signal N`.
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        _ => return format!("signal {signal}"),
    };
    name.to_string()
}

/// The result of running a graph.
#[derive(Clone, Debug, PartialEq)]
pub enum ExecOutcome {
    /// Outputs in OutputIndex order (tensor arrays flattened in ElementIndex order).
    Outputs(Vec<TensorData>),
    /// No outputs, and why.
    Refused {
        /// The class of refusal.
        kind: Refusal,
        /// The oracle's explanation.
        reason: String,
    },
    /// The backend process crashed, hung or ran out of memory.
    Abnormal {
        /// How it ended.
        how: Abnormal,
        /// What it printed last, and where it was.
        detail: String,
    },
}

/// What to produce a module from.
#[derive(Clone, Debug)]
pub struct ProduceRequest<'a> {
    /// TOSA MLIR text (`func.func` per graph, as `spvgraph_ir::mlir` prints it).
    pub mlir: &'a str,
    /// Whether the producer should emit `NonSemantic.Graph.DebugInfo`.
    pub debug_info: bool,
}

/// What a producer made of a request.
#[derive(Clone, Debug, PartialEq)]
pub enum ProduceOutcome {
    /// The module it produced, with what it takes to run it in place of the
    /// source (graph-constant data, the interface map) and what it did on
    /// the way ([`crate::produced::ProducedRun`] turns a case's request into
    /// one for this module).
    Module {
        /// The SPIR-V words.
        words: Vec<u32>,
        /// Data of the module's `OpGraphConstantARM`s, by GraphConstantID
        /// (a producer may keep large constants outside the module).
        graph_constants: BTreeMap<u32, TensorData>,
        /// The produced entry point and where each source argument and
        /// result went.
        interface: InterfaceMap,
        /// Transformations the producer made (renamed or reordered
        /// interfaces, pass-through outputs, reshapes, partitions, ...).
        notes: Vec<ProducerNote>,
        /// The container file the module came in (model-converter's VGF),
        /// for readers of that format ([`Reader::read_container`]).
        container: Option<Vec<u8>>,
    },
    /// It refused the input, with its message.
    Rejected {
        /// The producer's message.
        message: String,
    },
    /// The producer process crashed, hung or ran out of memory.
    Abnormal {
        /// How it ended.
        how: Abnormal,
        /// What it printed last.
        detail: String,
    },
}

/// What a reader ([`Capability::Describe`]) made of a module or a container.
#[derive(Clone, Debug, PartialEq)]
pub enum ReadOutcome {
    /// The graphs it shows.
    Read(Reading),
    /// It refused the input with an error of its own (an exception with a
    /// message): on a valid module a finding, on an invalid one what a
    /// reader should do.
    Rejected {
        /// The reader's message (`TypeError: ...`).
        message: String,
        /// Where it was raised and what caused it, for the note.
        detail: String,
    },
    /// The reader crashed, hung or ran out of memory.
    Abnormal {
        /// How it ended.
        how: Abnormal,
        /// What it printed last.
        detail: String,
    },
}

/// The graphs a reader shows, as it shows them (names and values in its
/// own words: the judgement compares them with the module's own facts,
/// `spvgraph_ir::info`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Reading {
    /// Its graphs, in its order.
    pub graphs: Vec<ReadGraph>,
    /// The resources of a container (a VGF's inputs, outputs, constants and
    /// intermediates), when it read one.
    pub resources: Vec<ReadResource>,
}

/// One graph as a reader shows it.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ReadGraph {
    /// The id of its `OpGraphARM`, when the reader says.
    pub id: Option<u32>,
    /// The entry points it names for the graph.
    pub entry_points: Vec<String>,
    /// The graph's type as the reader prints it (`(float32[1, 2]) -> (...)`).
    pub graph_type: Option<String>,
    /// Its inputs.
    pub inputs: Vec<ReadInput>,
    /// Its operation nodes.
    pub nodes: Vec<ReadNode>,
    /// Its outputs.
    pub outputs: Vec<ReadOutput>,
    /// The graph constants it shows as nodes of their own.
    pub graph_constants: Vec<ReadGraphConstant>,
}

/// A type as a reader names it: `tensor<i8, 1x2>` in `spvgraph info`'s
/// spelling, and whether the reader leaves part of it open.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ReadType {
    /// The type, in `spvgraph info`'s spelling; `None` when the reader
    /// shows none.
    pub ty: Option<String>,
    /// Its own words for it.
    pub shown: Option<String>,
    /// Whether the reader's words leave the element type open (an adapter
    /// that prints `float16` for both fp16 and bf16): then any element type
    /// of that width fits.
    pub ambiguous: bool,
}

/// Where a value a reader shows comes from: the instruction that makes it
/// (an `OpGraphInputARM`, an operation, an `OpGraphConstantARM`) and, for
/// an operation with several results, which one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReadSource {
    /// The result id of the instruction, when the reader says which.
    pub id: Option<u32>,
    /// The result (struct member) of that instruction.
    pub output: u32,
}

/// A constant a reader shows, parsed from its text.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ReadConstant {
    /// The text the reader shows.
    pub shown: String,
    /// The element type its text names (`int32`, `float16`, `float8`, a
    /// VkFormat), if any.
    pub elem: Option<String>,
    /// The values it shows, flattened in row-major order (a prefix when
    /// [`ReadConstant::truncated`]); `None` when the text could not be read.
    pub values: Option<Vec<ReadScalar>>,
    /// Whether only the first values are shown (a preview).
    pub truncated: bool,
    /// Whether the reader says only that every element is zero.
    pub all_zero: bool,
}

/// One scalar of a [`ReadConstant`].
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub enum ReadScalar {
    /// An integer.
    Int(i128),
    /// A floating-point number.
    Float(f64),
    /// A boolean.
    Bool(bool),
}

/// An input of a graph as a reader shows it.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ReadInput {
    /// The result id of its `OpGraphInputARM`.
    pub id: Option<u32>,
    /// Its InputIndex.
    pub index: Option<u64>,
    /// Its ElementIndex, for an element of a tensor-array input.
    pub element: Option<u64>,
    /// Its type.
    pub ty: ReadType,
}

/// An operation node of a graph.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ReadNode {
    /// The result id of its instruction.
    pub id: Option<u32>,
    /// Its operator as shown (`CONV2D`, `OpCompositeExtract`).
    pub op: String,
    /// Its operands, in order.
    pub operands: Vec<ReadOperand>,
    /// The types of its results, in order.
    pub results: Vec<ReadType>,
}

/// One operand of an operation node.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ReadOperand {
    /// The operand's name in the instruction's grammar (`input1`, `pad`).
    pub tag: Option<String>,
    /// The id the operand names, when the reader says.
    pub id: Option<u32>,
    /// The edge it is drawn from, when it is drawn as one.
    pub source: Option<ReadSource>,
    /// The constant it shows, when it shows the operand as a constant.
    pub constant: Option<ReadConstant>,
    /// The type shown on the edge.
    pub ty: ReadType,
}

/// An output of a graph.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ReadOutput {
    /// Its OutputIndex.
    pub index: Option<u64>,
    /// Its ElementIndex, for an element of a tensor-array output.
    pub element: Option<u64>,
    /// The id of the value it is set from, when the reader says.
    pub value: Option<u32>,
    /// The edge it is drawn from.
    pub source: Option<ReadSource>,
    /// The constant it shows, when it is set from one.
    pub constant: Option<ReadConstant>,
    /// Its type.
    pub ty: ReadType,
}

/// A graph constant shown as a node.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ReadGraphConstant {
    /// The result id of its `OpGraphConstantARM`.
    pub id: Option<u32>,
    /// Its GraphConstantID.
    pub graph_constant_id: Option<u32>,
    /// Its type.
    pub ty: ReadType,
}

/// A resource of a container (a VGF's model resource table entry).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ReadResource {
    /// Its index in the container's table.
    pub index: Option<u64>,
    /// The descriptor binding of its slot in the container's graph segment
    /// (an input or output resource), when the container says.
    pub binding: Option<u32>,
    /// Its role as the reader names it (`INPUT`, `OUTPUT`, `CONSTANT`, `INTERMEDIATE`).
    pub category: String,
    /// Its element format in the container's words (a VkFormat name, or
    /// `UNKNOWN_<value>` for one the reader does not know).
    pub format: Option<String>,
    /// Its element type in `spvgraph info`'s spelling, when the reader's
    /// format names one this harness knows.
    pub elem: Option<String>,
    /// Its shape.
    pub shape: Option<Vec<i64>>,
    /// The value a constant resource shows (`None`: none shown).
    pub constant: Option<ReadConstant>,
    /// The operation results that feed it (an output resource).
    pub sources: Vec<ReadSource>,
}

/// Where an execution backend's own time went, by phase, summed over every
/// call since the oracle was made. The hunt reads it before and after a
/// batch; the difference is that batch's share. Phases an adapter cannot
/// tell apart stay zero and their time counts under the nearest one it can.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PhaseTimes {
    /// Starting processes or workers: a cold start, a restart after a
    /// crash, a spare worker started ahead of need (counted when it starts).
    pub start: std::time::Duration,
    /// Turning the graph into something that runs: translation, compilation
    /// (`iree-compile`), pipeline creation (shader compilation in a layer).
    pub compile: std::time::Duration,
    /// Running it: dispatch and wait, `iree-run-module`, the reference model.
    pub run: std::time::Duration,
    /// Reading results back and decoding them.
    pub readback: std::time::Duration,
}

impl PhaseTimes {
    /// The sum of the phases.
    pub fn total(&self) -> std::time::Duration {
        self.start + self.compile + self.run + self.readback
    }

    /// `self - earlier`, phase by phase (never negative).
    pub fn since(&self, earlier: &PhaseTimes) -> PhaseTimes {
        PhaseTimes {
            start: self.start.saturating_sub(earlier.start),
            compile: self.compile.saturating_sub(earlier.compile),
            run: self.run.saturating_sub(earlier.run),
            readback: self.readback.saturating_sub(earlier.readback),
        }
    }

    /// Adds another record, phase by phase.
    pub fn add(&mut self, other: &PhaseTimes) {
        self.start += other.start;
        self.compile += other.compile;
        self.run += other.run;
        self.readback += other.readback;
    }
}

/// A question an oracle can answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Capability {
    /// Is this module valid?
    Validate,
    /// What are the outputs of this graph for these inputs?
    Execute,
    /// What module do you produce from this TOSA MLIR?
    Produce,
    /// What are the exact (fp64) results and error bounds for these inputs?
    /// The referee of output disagreements ([`Referee::execute_precise`]).
    Reference,
    /// What graphs do you read in this module (its operators, their edges,
    /// types and shapes, the constants and their values)? A reader: a
    /// viewer or an importer ([`Reader::read`], [`Reader::read_container`]).
    Describe,
}

impl Capability {
    /// Every capability, in the order reports list them.
    pub const ALL: [Capability; 5] =
        [Capability::Validate, Capability::Execute, Capability::Produce, Capability::Reference, Capability::Describe];
}

/// What a validator says about one must-reject rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleClaim {
    /// It rejects every module breaking the rule, naming exactly that rule
    /// (the in-tree validator).
    Exact,
    /// It rejects every module breaking the rule, in its own words.
    Rejects,
    /// It is documented not to check the rule: it accepts such modules.
    Accepts,
    /// Nothing is known.
    Unknown,
}

/// A documented disagreement of an oracle with the expectation: known, understood,
/// reported as documented rather than as a new finding. Each oracle adapter
/// owns its table.
///
/// A judgement's disagreement is an instance of a row when its kind is the
/// row's and it meets every condition the row names: the rule, the operator,
/// the mutator, text of the message, and every module [`Feature`] of
/// [`KnownDiscrepancy::features`] (a row that names only features matches
/// whatever operator the wrong answer came through). A row that names none
/// of these matches nothing: it documents a bug the adapter works around, or
/// one only its minimal module shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownDiscrepancy {
    /// The disagreement kind it explains (`spirv-val-misses`, `crash`, ...).
    pub kind: &'static str,
    /// The rule concerned, when the case breaks or is about one.
    pub rule: Option<RuleId>,
    /// The TOSA operator concerned, when it is about one.
    pub operator: Option<TosaOp>,
    /// The near-valid mutator name, when it only shows with that mutator.
    pub mutator: Option<&'static str>,
    /// What the oracle does and why that is wrong or merely different.
    pub why: &'static str,
    /// The minimal module, relative to the repository root.
    pub finding: &'static str,
    /// Text the oracle's message holds when it is this bug.
    pub message: Option<&'static str>,
    /// The module features that trigger it (all must be present).
    pub features: &'static [Feature],
    /// The project the bug belongs to.
    pub owner: Owner,
    /// Where it stands upstream.
    pub status: Status,
    /// The upstream issue or change, where one is known (`owner/repo#N`).
    pub upstream: Option<&'static str>,
}

impl KnownDiscrepancy {
    /// An open bug of `owner` of kind `kind` that names nothing yet: the
    /// start of a table row, which then names what it matches on.
    pub const fn open(kind: &'static str, owner: Owner, why: &'static str, finding: &'static str) -> KnownDiscrepancy {
        KnownDiscrepancy {
            kind,
            rule: None,
            operator: None,
            mutator: None,
            why,
            finding,
            message: None,
            features: &[],
            owner,
            status: Status::Open,
            upstream: None,
        }
    }

    /// Whether the row names anything a judgement can match on.
    pub fn names_something(&self) -> bool {
        self.rule.is_some()
            || self.operator.is_some()
            || self.mutator.is_some()
            || self.message.is_some()
            || !self.features.is_empty()
    }
}

/// A reproducer of one oracle's answer that needs only the tools of the
/// project behind the oracle (a scenario and the scenario runner, the
/// `iree-compile`/`iree-run-module` lines, `spirv-as`/`spirv-val` on the
/// text form, ...), written into a directory of its own so that it can be
/// attached to a report upstream.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Standalone {
    /// The tools the commands run, as named on the command lines.
    pub tools: Vec<String>,
    /// Environment the commands need (`NAME`, value; `$ORACLES` stands for
    /// the directory `ci/setup-oracles` installs into).
    pub env: Vec<(String, String)>,
    /// Shell commands, run in order in the reproducer's directory.
    pub commands: Vec<String>,
    /// What shows the bug once they ran.
    pub look: String,
}

/// Why an oracle could not answer at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OracleError {
    /// The oracle cannot run here (missing tool or library); says how to fix it.
    #[error("{oracle} unavailable: {reason}")]
    Unavailable {
        /// Oracle name.
        oracle: String,
        /// What is missing and how to install it.
        reason: String,
    },
    /// The oracle does not answer this kind of question.
    #[error("{oracle} does not support {what}")]
    Unsupported {
        /// Oracle name.
        oracle: String,
        /// The question.
        what: &'static str,
    },
    /// The oracle ran and failed (crash, timeout, unreadable output).
    #[error("{oracle} failed: {reason}")]
    Failed {
        /// Oracle name.
        oracle: String,
        /// What happened.
        reason: String,
    },
}

/// Who an oracle is: the tool it runs and the channel of that tool, and
/// the instance name made of both (`emulation-layer@dev`). The registry
/// gives it to the oracle with the tools it is built on
/// ([`Instance::of`]), so that a channel instance is an oracle of its own,
/// not a wrapper around one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    tool: Cow<'static, str>,
    name: Cow<'static, str>,
    channel: Option<String>,
}

impl Instance {
    /// The release of `tool`: named as the tool.
    pub const fn release(tool: &'static str) -> Instance {
        Instance { tool: Cow::Borrowed(tool), name: Cow::Borrowed(tool), channel: None }
    }

    /// The release of a tool named at run time (a user's command line).
    pub fn named(tool: String) -> Instance {
        Instance { tool: Cow::Owned(tool.clone()), name: Cow::Owned(tool), channel: None }
    }

    /// `tool` on `channel` (`None`: the release).
    pub fn on(tool: &'static str, channel: Option<&str>) -> Instance {
        match channel {
            None => Instance::release(tool),
            Some(c) => Instance {
                tool: Cow::Borrowed(tool),
                name: Cow::Owned(format!("{tool}{}{c}", crate::registry::CHANNEL_SEPARATOR)),
                channel: Some(c.to_string()),
            },
        }
    }

    /// `tool` on the channel `tools` belong to ([`crate::tools::Tools::channel_name`]).
    pub fn of(tool: &'static str, tools: &crate::tools::Tools) -> Instance {
        Instance::on(tool, tools.channel_name())
    }

    /// The instance name (`in-tree`, `spirv-val`, `emulation-layer@dev`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tool it runs, the same for every version of it: the name without
    /// the channel. Two oracles with one tool and different channels are two
    /// versions of that tool (the release differential compares them).
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The channel of the tool (`dev`: a pre-release, or a label for a
    /// user's build); `None` for the release. A channel is taken as newer
    /// than the release.
    pub fn channel(&self) -> Option<&str> {
        self.channel.as_deref()
    }

    /// `result` with its error under the instance's name: an adapter's
    /// helpers name their errors after the tool, and the instance answers
    /// under its own name.
    pub fn own<T>(&self, result: Result<T, OracleError>) -> Result<T, OracleError> {
        result.map_err(|e| self.own_error(e))
    }

    /// `e` under the instance's name when it names the tool (an error of
    /// another oracle the adapter asked keeps its name).
    pub fn own_error(&self, e: OracleError) -> OracleError {
        let own = |oracle: String| if oracle == self.tool() { self.name.to_string() } else { oracle };
        match e {
            OracleError::Unavailable { oracle, reason } => OracleError::Unavailable { oracle: own(oracle), reason },
            OracleError::Unsupported { oracle, what } => OracleError::Unsupported { oracle: own(oracle), what },
            OracleError::Failed { oracle, reason } => OracleError::Failed { oracle: own(oracle), reason },
        }
    }
}

/// An oracle: who it is, whether it can run here, and the questions it
/// answers, one capability trait each ([`Validator`], [`Executor`],
/// [`Producer`], [`Reader`], [`Referee`]). Implemented by the in-tree
/// oracles and by one adapter per external tool; found by name in
/// [`crate::registry`]. Each adapter keeps its tool's quirks (file formats,
/// start-up, batching) and its documented discrepancies to itself.
///
/// The capability accessors have no default: a new capability makes every
/// oracle say whether it has it ([`capabilities!`] writes the five in one
/// line), and the list of its capabilities (`dyn Oracle`'s `capabilities`)
/// is derived from them.
pub trait Oracle: Send + Sync {
    /// Its name, tool and channel.
    fn instance(&self) -> &Instance;

    /// Whether the oracle can run here; [`OracleError::Unavailable`] says why not.
    fn available(&self) -> Result<(), OracleError>;

    /// The version of the tool it runs, as the tool reports it, when known.
    fn version(&self) -> Option<String>;

    /// The projects its answers are built from, most specific first (the
    /// tool's own project, then what it embeds or runs on): a bug this
    /// oracle shows belongs to one of them (see [`crate::attribution`]).
    fn components(&self) -> &'static [Owner];

    /// Its documented discrepancies.
    fn known_discrepancies(&self) -> &'static [KnownDiscrepancy] {
        &[]
    }

    /// The share of hunt cases it runs on by default (expensive backends
    /// override this; `spvgraph hunt --sample NAME=F` overrides it again).
    fn default_sample(&self) -> f64 {
        1.0
    }

    /// How many requests it prefers per [`Executor::execute_batch`] call.
    fn preferred_batch(&self) -> usize {
        1
    }

    /// Where its backend's time went so far, by phase ([`PhaseTimes`]); all
    /// zero for an oracle that does not count.
    fn phase_times(&self) -> PhaseTimes {
        PhaseTimes::default()
    }

    /// Whether the oracle runs the SPIR-V module itself. An oracle that runs
    /// a TOSA translation of it (the reference model, IREE) never sees an
    /// invalid module as such, so running one is not accepting it, and
    /// failing on one is no finding.
    fn reads_spirv(&self) -> bool {
        true
    }

    /// Its validity verdicts ([`Capability::Validate`]), if it gives any.
    fn as_validator(&self) -> Option<&dyn Validator>;

    /// Its runs of graphs ([`Capability::Execute`]), if it runs any.
    fn as_executor(&self) -> Option<&dyn Executor>;

    /// Its modules made from TOSA MLIR ([`Capability::Produce`]), if it makes any.
    fn as_producer(&self) -> Option<&dyn Producer>;

    /// Its readings of modules ([`Capability::Describe`]), if it reads any.
    fn as_reader(&self) -> Option<&dyn Reader>;

    /// Its precise answers ([`Capability::Reference`]), if it gives any.
    fn as_referee(&self) -> Option<&dyn Referee>;
}

/// Answers "is this module valid?".
pub trait Validator: Send + Sync {
    /// The validity verdict for a module.
    fn validate(&self, module: &[u32], options: &ValidateOptions) -> Result<Verdict, OracleError>;

    /// What this validator claims about modules breaking `rule`
    /// ([`RuleClaim::Unknown`] when nothing is known).
    fn rule_claim(&self, rule: RuleId) -> RuleClaim;

    /// Writes into `dir` a reproducer of [`Validator::validate`] on `module`
    /// that needs only this tool's own project ([`Standalone`]); `None` when
    /// the adapter has none.
    fn standalone_validate(
        &self,
        module: &[u32],
        options: &ValidateOptions,
        dir: &std::path::Path,
    ) -> Result<Option<Standalone>, OracleError> {
        let _ = (module, options, dir);
        Ok(None)
    }
}

/// Answers "what are the outputs of this graph for these inputs?".
pub trait Executor: Send + Sync {
    /// Runs a graph.
    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError>;

    /// Runs several graphs; adapters with a high start-up cost override this
    /// to share one process or scenario between them. One result per request,
    /// in order.
    fn execute_batch(&self, requests: &[ExecRequest<'_>]) -> Vec<Result<ExecOutcome, OracleError>> {
        requests.iter().map(|r| self.execute(r)).collect()
    }

    /// Writes into `dir` a reproducer of [`Executor::execute`] on `request`
    /// that needs only this tool's own project ([`Standalone`]); `None` when
    /// the adapter has none.
    fn standalone_execute(
        &self,
        request: &ExecRequest<'_>,
        dir: &std::path::Path,
    ) -> Result<Option<Standalone>, OracleError> {
        let _ = (request, dir);
        Ok(None)
    }
}

/// Answers "what module do you produce from this TOSA MLIR?".
pub trait Producer: Send + Sync {
    /// Produces a module from TOSA MLIR.
    fn produce(&self, request: &ProduceRequest<'_>) -> Result<ProduceOutcome, OracleError>;

    /// A reproducer of [`Producer::produce`] on `request` that needs only
    /// this tool's own project ([`Standalone`]); `None` when the adapter has none.
    fn standalone_produce(
        &self,
        request: &ProduceRequest<'_>,
        dir: &std::path::Path,
    ) -> Result<Option<Standalone>, OracleError> {
        let _ = (request, dir);
        Ok(None)
    }
}

/// Answers "what graphs do you read in this module?" (a viewer or an importer).
pub trait Reader: Send + Sync {
    /// The graphs it reads in a module.
    fn read(&self, module: &[u32]) -> Result<ReadOutcome, OracleError>;

    /// The graphs it reads in a container of another format (a VGF file's
    /// bytes); [`OracleError::Unsupported`] when it reads none.
    fn read_container(&self, bytes: &[u8]) -> Result<ReadOutcome, OracleError>;

    /// A reproducer of [`Reader::read`] on `module` that needs only the
    /// reader's own project ([`Standalone`]); `None` when the adapter has none.
    fn standalone_read(&self, module: &[u32], dir: &std::path::Path) -> Result<Option<Standalone>, OracleError> {
        let _ = (module, dir);
        Ok(None)
    }
}

/// Answers "what are the exact results and error bounds?": the referee of
/// output disagreements.
pub trait Referee: Send + Sync {
    /// The precise answer (fp64 results and bounds tensors) that the TOSA
    /// compliance rules judge other answers against.
    fn execute_precise(&self, request: &ExecRequest<'_>) -> Result<PreciseOutcome, OracleError>;
}

/// Writes an oracle's five capability accessors ([`Oracle::as_validator`],
/// ...) inside its `impl Oracle` from one line that says `yes` or `no` to
/// each capability, in the trait's order:
/// `capabilities! { validator: no, executor: yes, producer: no, reader: no, referee: no }`.
/// Every key is required, so a new capability is one every oracle must
/// decide; `yes` needs the oracle to implement that capability's trait.
#[macro_export]
macro_rules! capabilities {
    (validator: $v:ident, executor: $e:ident, producer: $p:ident, reader: $r:ident, referee: $f:ident $(,)?) => {
        $crate::capabilities!(@accessor as_validator, $crate::oracle::Validator, $v);
        $crate::capabilities!(@accessor as_executor, $crate::oracle::Executor, $e);
        $crate::capabilities!(@accessor as_producer, $crate::oracle::Producer, $p);
        $crate::capabilities!(@accessor as_reader, $crate::oracle::Reader, $r);
        $crate::capabilities!(@accessor as_referee, $crate::oracle::Referee, $f);
    };
    (@accessor $name:ident, $capability:path, yes) => {
        fn $name(&self) -> Option<&dyn $capability> {
            Some(self)
        }
    };
    (@accessor $name:ident, $capability:path, no) => {
        fn $name(&self) -> Option<&dyn $capability> {
            None
        }
    };
}

/// What every oracle answers the same way, derived from [`Oracle::instance`]
/// and the capability accessors rather than implemented a second time.
impl dyn Oracle + '_ {
    /// Short stable name (`in-tree`, `spirv-val`, `tosa-ref`, ...; a channel
    /// instance adds its channel: `emulation-layer@dev`).
    pub fn name(&self) -> &str {
        self.instance().name()
    }

    /// The tool it runs ([`Instance::tool`]).
    pub fn tool(&self) -> &str {
        self.instance().tool()
    }

    /// The channel of the tool it runs ([`Instance::channel`]).
    pub fn channel(&self) -> Option<&str> {
        self.instance().channel()
    }

    /// Whether it answers `capability`'s question.
    pub fn can(&self, capability: Capability) -> bool {
        match capability {
            Capability::Validate => self.as_validator().is_some(),
            Capability::Execute => self.as_executor().is_some(),
            Capability::Produce => self.as_producer().is_some(),
            Capability::Reference => self.as_referee().is_some(),
            Capability::Describe => self.as_reader().is_some(),
        }
    }

    /// The questions it answers, in [`Capability::ALL`]'s order.
    pub fn capabilities(&self) -> Vec<Capability> {
        Capability::ALL.into_iter().filter(|c| self.can(*c)).collect()
    }

    /// Its validator, or [`OracleError::Unsupported`] under its name.
    pub fn validator(&self) -> Result<&dyn Validator, OracleError> {
        self.as_validator().ok_or_else(|| self.unsupported("validation"))
    }

    /// Its executor, or [`OracleError::Unsupported`] under its name.
    pub fn executor(&self) -> Result<&dyn Executor, OracleError> {
        self.as_executor().ok_or_else(|| self.unsupported("execution"))
    }

    /// Its producer, or [`OracleError::Unsupported`] under its name.
    pub fn producer(&self) -> Result<&dyn Producer, OracleError> {
        self.as_producer().ok_or_else(|| self.unsupported("production"))
    }

    /// Its reader, or [`OracleError::Unsupported`] under its name.
    pub fn reader(&self) -> Result<&dyn Reader, OracleError> {
        self.as_reader().ok_or_else(|| self.unsupported("reading modules"))
    }

    /// Its referee, or [`OracleError::Unsupported`] under its name.
    pub fn referee(&self) -> Result<&dyn Referee, OracleError> {
        self.as_referee().ok_or_else(|| self.unsupported("precise execution"))
    }

    /// What its validator claims about `rule`; [`RuleClaim::Unknown`] for an
    /// oracle that validates nothing.
    pub fn rule_claim(&self, rule: RuleId) -> RuleClaim {
        self.as_validator().map_or(RuleClaim::Unknown, |v| v.rule_claim(rule))
    }

    fn unsupported(&self, what: &'static str) -> OracleError {
        OracleError::Unsupported { oracle: self.name().to_string(), what }
    }
}

/// `oracle` when it can run here. When it cannot: `Ok(None)` after a
/// `skipping: …` notice, or, when a missing tool is a failure
/// ([`crate::tools::Tools::required`], `CI=true`), the reason as an
/// error. The oracle-level counterpart of [`crate::tools::locate`],
/// for code (tests, examples) that may skip work without a tool.
#[allow(clippy::print_stderr, reason = "the skip notice of a test or an example, as cargo test shows it")]
pub fn runnable<O: Oracle>(oracle: O) -> Result<Option<O>, OracleError> {
    match oracle.available() {
        Ok(()) => Ok(Some(oracle)),
        Err(e) if crate::tools::Tools::required() => Err(e),
        Err(e) => {
            eprintln!("skipping: {e}");
            Ok(None)
        }
    }
}

/// The most elements a tensor made up by [`OwnedExecRequest::fit_to_module`]
/// may have: larger ones are left out (the backend then says what is missing).
const MAX_FITTED_ELEMENTS: usize = 1 << 22;

impl OwnedExecRequest {
    /// Makes the inputs and graph constants follow the module's declared
    /// interface: each one whose type and shape the module still declares is
    /// kept, any other (a near-valid mutation changed a graph constant's or
    /// an input's type, or added one) becomes zeros of the declared type.
    /// Returns what was replaced, for the record; leaves the request as it
    /// is when the interface cannot be described (the module does not
    /// decode, the entry point is gone): the backend's answer says so then.
    pub fn fit_to_module(&mut self) -> Vec<String> {
        let Ok(module) = spvgraph_ir::Module::decode_words(&self.module) else { return Vec::new() };
        let Ok(iface) = crate::exec::interface(&module, self.entry_point.as_deref()) else { return Vec::new() };
        let zeros = |p: &crate::exec::Port| {
            spvgraph_ir::count::checked_len(&p.shape)
                .filter(|&n| n <= MAX_FITTED_ELEMENTS)
                .map(|_| TensorData::zeros(p.elem, &p.shape))
        };
        let fits = |t: &TensorData, p: &crate::exec::Port| t.elem() == p.elem && t.shape() == p.shape.as_slice();
        let mut changed = Vec::new();
        let mut inputs = Vec::with_capacity(iface.inputs.len());
        for (i, port) in iface.inputs.iter().enumerate() {
            match self.inputs.get(i) {
                Some(t) if fits(t, port) => inputs.push(t.clone()),
                _ => match zeros(port) {
                    Some(z) => {
                        changed.push(format!("{} filled with zeros", port.describe("input")));
                        inputs.push(z);
                    }
                    None => return changed,
                },
            }
        }
        let mut constants = BTreeMap::new();
        for port in &iface.graph_constants {
            match self.graph_constants.get(&port.index) {
                Some(t) if fits(t, port) => {
                    constants.insert(port.index, t.clone());
                }
                _ => {
                    if let Some(z) = zeros(port) {
                        changed.push(format!("{} filled with zeros", port.describe("graph constant")));
                        constants.insert(port.index, z);
                    }
                }
            }
        }
        if self.inputs.len() != inputs.len() {
            changed.push(format!("{} input(s) where the module takes {}", self.inputs.len(), inputs.len()));
        }
        self.inputs = inputs;
        self.graph_constants = constants;
        changed
    }

    /// Whether every input fits its port of the module's interface (element
    /// type and shape): false when [`Self::fit_to_module`] could not fill a
    /// port (one too large to fill with zeros), or the module does not decode.
    pub fn fits_module(&self) -> bool {
        let Ok(module) = spvgraph_ir::Module::decode_words(&self.module) else { return false };
        let Ok(iface) = crate::exec::interface(&module, self.entry_point.as_deref()) else { return false };
        iface.inputs.len() == self.inputs.len()
            && iface.inputs.iter().zip(&self.inputs).all(|(p, t)| t.elem() == p.elem && t.shape() == p.shape.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_ir::builder::ModuleBuilder;
    use spvgraph_ir::elem::ElemType;
    use spvgraph_ir::tosa::TosaOp;

    /// A graph `x + c` where `c` is graph constant 1 of type `cty` (a
    /// near-valid mutation may have changed it from the valid case's i32 [4]).
    fn with_constant(cty: (ElemType, &[u32])) -> Vec<u32> {
        let mut b = ModuleBuilder::new();
        let t = b.type_tensor(ElemType::I32, Some(&[4]));
        let ct = b.type_tensor(cty.0, Some(cty.1));
        let gty = b.type_graph(&[t], &[t]);
        let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
        let c = b.graph_constant(ct, 1);
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "main", vars);
        let x = b.graph_input(t, 0, None);
        let y = b.tosa(TosaOp::Add, t, vec![x, c]);
        b.graph_output(y, 0, None);
        b.end_graph();
        b.finish().encode_words().expect("encodes")
    }

    fn request(module: Vec<u32>) -> OwnedExecRequest {
        let ones = TensorData::from_bits(ElemType::I32, &[4], &[1; 4]).expect("tensor");
        OwnedExecRequest {
            module,
            entry_point: Some("main".into()),
            inputs: vec![ones.clone()],
            graph_constants: BTreeMap::from([(1, ones)]),
        }
    }

    #[test]
    fn a_request_follows_a_graph_constant_whose_type_changed() {
        let mut r = request(with_constant((ElemType::Bool, &[1, 3])));
        let changed = r.fit_to_module();
        assert_eq!(changed.len(), 1, "{changed:?}");
        let c = &r.graph_constants[&1];
        assert_eq!((c.elem(), c.shape()), (ElemType::Bool, &[1usize, 3][..]));
        assert_eq!(r.inputs[0].to_bits(), [1; 4], "the input still fits and is kept");
        // A request that fits is left alone.
        let mut same = request(with_constant((ElemType::I32, &[4])));
        let before = same.clone();
        assert!(same.fit_to_module().is_empty());
        assert_eq!(same, before);
        assert!(same.fits_module());
    }
}

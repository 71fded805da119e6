//! The uniform oracle interface: every in-tree or external oracle answers the
//! same questions (is this module valid? what are the outputs for these
//! inputs?) or says it cannot. The differential driver never special-cases one.

use spvgraph_ir::elem::Profile;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
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

/// TOSA level for level-limit checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Level {
    /// Level 8K.
    #[default]
    EightK,
    /// No level limits.
    None,
}

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

/// What to run.
#[derive(Clone, Debug)]
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

/// Why an oracle refused to produce outputs for a valid request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Refusal {
    /// The graph is invalid (tosa_error).
    Invalid,
    /// The run would exceed the oracle's resource budget.
    OverBudget,
    /// A REQUIRE failed at run time (tosa_unpredictable): no defined result.
    Unpredictable,
}

/// The result of running a graph.
#[derive(Clone, Debug, PartialEq)]
pub enum ExecOutcome {
    /// Outputs in OutputIndex order.
    Outputs(Vec<TensorData>),
    /// No outputs, and why.
    Refused {
        /// The class of refusal.
        kind: Refusal,
        /// The oracle's explanation.
        reason: String,
    },
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

/// An oracle: validates modules, executes graphs, or both.
pub trait Oracle: Send + Sync {
    /// Short stable name (`spvgraph-validator`, `spirv-val`, `tosa-reference-model`, ...).
    fn name(&self) -> &str;

    /// Whether the oracle can run here.
    fn available(&self) -> Result<(), OracleError>;

    /// The validity verdict for a module.
    fn validate(&self, module: &[u32], options: &ValidateOptions) -> Result<Verdict, OracleError> {
        let _ = (module, options);
        Err(OracleError::Unsupported { oracle: self.name().to_string(), what: "validation" })
    }

    /// Runs a graph.
    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        let _ = request;
        Err(OracleError::Unsupported { oracle: self.name().to_string(), what: "execution" })
    }
}

//! Why an execution produced no outputs.

use super::intmath::Require;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Id;
use std::fmt;

/// Where in the module a problem is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// Word offset of the instruction in the encoded module.
    pub word_offset: Option<usize>,
    /// The instruction, as text.
    pub instruction: Option<String>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.word_offset, &self.instruction) {
            (Some(w), Some(i)) => write!(f, "word {w}: {i}: "),
            (Some(w), None) => write!(f, "word {w}: "),
            (None, Some(i)) => write!(f, "{i}: "),
            (None, None) => Ok(()),
        }
    }
}

/// Why the executor refused to produce outputs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// The module or graph is invalid (a TOSA ERROR_IF or a structural rule).
    #[error("invalid graph: {location}{reason}")]
    Invalid {
        /// The instruction concerned.
        location: Location,
        /// What is wrong.
        reason: String,
    },
    /// Running the graph would need more memory than the budget allows.
    #[error("over the memory budget: the graph needs about {needed} bytes, the budget is {budget} bytes ({detail})")]
    OverBudget {
        /// Estimated bytes needed.
        needed: u64,
        /// The budget.
        budget: u64,
        /// What dominates the estimate.
        detail: String,
    },
    /// A REQUIRE failed at run time: the result is unpredictable.
    #[error(
        "unpredictable: {location}{op} requires that {}{}",
        require.describe(),
        element.as_ref().map(|e| format!(" (fails at element {e:?})")).unwrap_or_default()
    )]
    Unpredictable {
        /// The operator.
        op: TosaOp,
        /// Its result id.
        result: Id,
        /// The instruction concerned.
        location: Location,
        /// The REQUIRE that failed.
        require: Require,
        /// Index (in the output, or the operand the REQUIRE is about) of the
        /// first element found to fail, when the REQUIRE is per element.
        element: Option<Vec<usize>>,
    },
    /// The request does not fit the module: unknown entry point, wrong number
    /// or shape of inputs, missing graph-constant data.
    #[error("bad request: {0}")]
    Request(String),
    /// The executor contradicted itself (a bug in the executor, not in the module).
    #[error("internal executor error: {0}")]
    Internal(String),
}

impl ExecError {
    /// A short kind name: `invalid`, `over-budget`, `unpredictable`, `request`.
    pub fn kind(&self) -> &'static str {
        match self {
            ExecError::Invalid { .. } => "invalid",
            ExecError::OverBudget { .. } => "over-budget",
            ExecError::Unpredictable { .. } => "unpredictable",
            ExecError::Request(_) => "request",
            ExecError::Internal(_) => "internal",
        }
    }
}

/// A failure inside one operator, before the instruction context is attached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OpError {
    /// An ERROR_IF or malformed operand.
    Invalid(String),
    /// A REQUIRE failed, at an element if known.
    Unpredictable { require: Require, element: Option<Vec<usize>> },
}

impl OpError {
    pub(crate) fn invalid(reason: impl Into<String>) -> OpError {
        OpError::Invalid(reason.into())
    }

    pub(crate) fn require(require: Require) -> OpError {
        OpError::Unpredictable { require, element: None }
    }

    pub(crate) fn require_at(require: Require, element: Vec<usize>) -> OpError {
        OpError::Unpredictable { require, element: Some(element) }
    }
}

/// Index of row-major position `flat` in `shape`.
pub(crate) fn unflatten(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for (i, &d) in shape.iter().enumerate().rev() {
        if d > 0 {
            idx[i] = flat % d;
            flat /= d;
        }
    }
    idx
}

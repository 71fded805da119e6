//! The reference TOSA executor: runs a graph of a SPIR-V module on `ndarray`
//! tensors, for all 66 `TOSA.001000.1` operators and every type row of the
//! catalogue (PRO-INT, PRO-FP, EXT-INT16, EXT-BF16, EXT-FP8E4M3, EXT-FP8E5M2,
//! EXT-FFT, EXT-DOUBLEROUND, EXT-INEXACTROUND).
//!
//! * Integer results are bit-exact per the TOSA pseudocode; a REQUIRE that
//!   fails at run time (overflow, out-of-range index, bad shift, ...) makes
//!   the run [`ExecError::Unpredictable`], naming the operator, the REQUIRE
//!   and the first failing element.
//! * Floating point is computed in at least the accumulator precision
//!   (usually `f32`, transcendental functions and FFTs in `f64`) and rounded
//!   once, to nearest-even, to the output type at the end of each operator.
//! * Convolutions and MATMUL run as GEMMs (im2col blocks, `matrixmultiply`
//!   SIMD kernels, rayon over blocks).
//! * The operand roles, type rows and shape rules come from the catalogue in
//!   [`spvgraph_ir::tosa`]; every type row and shape is checked before an
//!   operator runs, and a violation is [`ExecError::Invalid`].
//! * A memory estimate is checked against [`ExecConfig::memory_budget_bytes`]
//!   before anything runs ([`ExecError::OverBudget`]); the limits of the TOSA
//!   level ([`ExecConfig::level`], 8K by default) are REQUIREs, so exceeding
//!   one is [`ExecError::Unpredictable`] with [`Require::Level`].
//!
//! Storage conventions are those of [`TensorData`]: i48 in `i64` (the low 48
//! bits count), bf16 as `half::bf16`, fp8 as raw `u8` bits.

mod budget;
mod cast;
mod compare;
mod conv;
mod convert;
mod ctx;
mod dispatch;
mod elementwise;
mod error;
mod fft;
pub mod fp;
mod gather;
mod gemm;
mod generic;
mod graph;
mod instruction;
mod interface;
pub mod intmath;
mod layout;
mod level;
mod matmul;
mod operands;
mod pool;
mod reduce;
mod rescale;
mod resize;
mod table;
mod unary;
mod zipmap;

pub use error::{ExecError, Location};
pub use interface::{Fitted, Interface, Port, MAX_ARRAY_PORTS};
pub use intmath::{LevelLimit, Require};
pub use unary::erf;

use crate::attribution::Owner;
use crate::oracle::{ExecOutcome, ExecRequest, Instance, Level, Oracle, OracleError, Refusal};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use std::cell::Cell;
use std::collections::BTreeMap;

/// The outputs of a graph, in OutputIndex order (tensor-array outputs
/// expanded in ElementIndex order).
pub type Outputs = Vec<TensorData>;

/// 1 GiB, the default memory budget.
pub const DEFAULT_MEMORY_BUDGET: u64 = 1 << 30;

/// Executor settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExecConfig {
    /// Refuse graphs whose memory estimate exceeds this many bytes.
    pub memory_budget_bytes: u64,
    /// TOSA level whose limits are checked (exceeding one is unpredictable);
    /// [`Level::EightK`] by default, as the reference model.
    pub level: Level,
}

impl Default for ExecConfig {
    fn default() -> Self {
        ExecConfig { memory_budget_bytes: DEFAULT_MEMORY_BUDGET, level: Level::EightK }
    }
}

/// The in-tree reference executor, usable directly ([`Executor::run`]) or as
/// an [`Oracle`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Executor {
    config: ExecConfig,
}

impl Executor {
    /// An executor with the given settings.
    pub fn new(config: ExecConfig) -> Executor {
        Executor { config }
    }

    /// Its settings.
    pub fn config(&self) -> ExecConfig {
        self.config
    }

    /// Runs the graph of entry point `entry` (`None`: the first entry point)
    /// on `inputs` (InputIndex order, tensor arrays flattened in ElementIndex
    /// order), with graph-constant data by GraphConstantID.
    pub fn run(
        &self,
        module: &Module,
        entry: Option<&str>,
        inputs: &[TensorData],
        graph_constants: &BTreeMap<u32, TensorData>,
    ) -> Result<Outputs, ExecError> {
        self.run_graph(module, entry, inputs, graph_constants, None)
    }

    fn run_graph(
        &self,
        module: &Module,
        entry: Option<&str>,
        inputs: &[TensorData],
        graph_constants: &BTreeMap<u32, TensorData>,
        flush: Option<&Cell<usize>>,
    ) -> Result<Outputs, ExecError> {
        graph::run(&graph::Run {
            module,
            entry,
            inputs,
            graph_constants,
            budget: self.config.memory_budget_bytes,
            level: self.config.level,
            flush,
            trace: None,
        })
    }

    /// [`Executor::run`], also recording what each operator instruction it
    /// ran is ([`crate::cells::OperatorFacts`]: type row, attribute and data
    /// classes), in the order it ran them: the coordinates of the case in a
    /// backend's judged-coverage map. The facts of the operators that ran
    /// before a failure are returned with the error.
    pub fn run_traced(
        &self,
        module: &Module,
        entry: Option<&str>,
        inputs: &[TensorData],
        graph_constants: &BTreeMap<u32, TensorData>,
    ) -> (Result<Outputs, ExecError>, Vec<crate::cells::OperatorFacts>) {
        let trace = std::cell::RefCell::new(Vec::new());
        let outputs = graph::run(&graph::Run {
            module,
            entry,
            inputs,
            graph_constants,
            budget: self.config.memory_budget_bytes,
            level: self.config.level,
            flush: None,
            trace: Some(&trace),
        });
        (outputs, trace.into_inner())
    }

    /// [`Executor::run`] as an implementation that flushes subnormal inputs
    /// computes: every bf16/fp16/fp32 subnormal an operator reads (from a graph
    /// input, a constant or another operator) is flushed to sign-preserved
    /// zero first, as TOSA allows (see [`crate::compliance::flush`]). `Ok(None)`
    /// when no operator read one, so the result would equal [`Executor::run`]'s.
    pub fn run_flushing_subnormals(
        &self,
        module: &Module,
        entry: Option<&str>,
        inputs: &[TensorData],
        graph_constants: &BTreeMap<u32, TensorData>,
    ) -> Result<Option<Outputs>, ExecError> {
        let flushed = Cell::new(0);
        let outputs = self.run_graph(module, entry, inputs, graph_constants, Some(&flushed))?;
        Ok((flushed.get() > 0).then_some(outputs))
    }
}

/// Runs a graph with the default settings (see [`Executor::run`]).
pub fn run(
    module: &Module,
    entry: Option<&str>,
    inputs: &[TensorData],
    graph_constants: &BTreeMap<u32, TensorData>,
) -> Result<Outputs, ExecError> {
    Executor::default().run(module, entry, inputs, graph_constants)
}

/// The interface of the graph `entry` names (`None`: the first entry point):
/// what inputs and graph constants [`Executor::run`] expects and what outputs it returns.
pub fn interface(module: &Module, entry: Option<&str>) -> Result<Interface, ExecError> {
    interface::describe(&Analysis::new(module), entry)
}

/// The name this executor reports as an oracle.
pub const ORACLE_NAME: &str = "spvgraph-executor";

/// Who this executor is as an oracle.
static INSTANCE: Instance = Instance::release(ORACLE_NAME);

impl Executor {
    /// Runs a request as an oracle does ([`crate::oracle::Executor::execute`]):
    /// the reference answer the harness compares backends with. Inherent so
    /// that the many places that ask the reference need no trait in scope.
    pub fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        let module = match Module::decode_words(request.module) {
            Ok(m) => m,
            Err(e) => return Ok(ExecOutcome::Refused { kind: Refusal::Invalid, reason: e.to_string() }),
        };
        outcome_of(self.run(&module, request.entry_point, request.inputs, request.graph_constants))
    }
}

impl Oracle for Executor {
    fn instance(&self) -> &Instance {
        &INSTANCE
    }

    fn available(&self) -> Result<(), OracleError> {
        Ok(())
    }

    fn version(&self) -> Option<String> {
        None
    }

    fn components(&self) -> &'static [Owner] {
        &[]
    }

    crate::capabilities! { validator: no, executor: yes, producer: no, reader: no, referee: no }
}

impl crate::oracle::Executor for Executor {
    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        Executor::execute(self, request)
    }
}

/// A run's result as the in-tree executor's oracle answer: outputs, a
/// refusal (invalid graph, over budget, no defined result), or an oracle
/// error (a request that does not fit, an internal error).
pub fn outcome_of(result: Result<Outputs, ExecError>) -> Result<ExecOutcome, OracleError> {
    match result {
        Ok(outputs) => Ok(ExecOutcome::Outputs(outputs)),
        Err(e) => {
            let kind = match &e {
                ExecError::Invalid { .. } => Refusal::Invalid,
                ExecError::OverBudget { .. } => Refusal::OverBudget,
                ExecError::Unpredictable { .. } => Refusal::Unpredictable,
                ExecError::Request(_) | ExecError::Internal(_) => {
                    return Err(OracleError::Failed { oracle: ORACLE_NAME.into(), reason: e.to_string() })
                }
            };
            Ok(ExecOutcome::Refused { kind, reason: e.to_string() })
        }
    }
}

//! Arm's ML emulation layer for Vulkan (`VK_LAYER_ML_Graph_Emulation` over
//! `VK_LAYER_ML_Tensor_Emulation`) on lavapipe, driven by `scenario-runner`
//! (ai-ml-sdk-scenario-runner), as an executing oracle.
//!
//! A request becomes a scenario ([`scenario`]): the module as a `SPIR-V`
//! shader resource, a tensor per interface variable at its
//! DescriptorSet/Binding, a graph constant per GraphConstantID and a
//! `dispatch_spirv_graph` command. Start-up (instance, device, process) is
//! shared by batching: [`crate::oracle::Executor::execute_batch`] puts up to
//! [`EmulationLayer::batch_size`] graphs in one scenario, and a failed batch
//! is split until every graph has its own outcome (the runner's log names
//! the graph whose pipeline failed; otherwise the batch is halved). Pipeline
//! creation (lavapipe compiling each operator's compute shader) dominates
//! the cost, so batching saves the fixed part only.
//!
//! Every TOSA element type goes in and out: bool `VK_FORMAT_R8_BOOL_ARM`,
//! i8/i16/i32 `R8/R16/R32_SINT`, i48 `R64_SINT`, fp16 `R16_SFLOAT`, fp32
//! `R32_SFLOAT`, bf16 `R16_SFLOAT_FPENCODING_BFLOAT16_ARM`, fp8
//! `R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM`/`..._FLOAT8E5M2_ARM`. The runner
//! validates each module with its own SPIRV-Tools before the layer sees it;
//! a refusal from that step says so in its reason.
//!
//! Outcomes: outputs; `Refused { Rejected }` when the runner or the layer
//! fails to create the pipeline or run the graph (the reason quotes the
//! runner's `ERROR` lines); `Refused { Unsupported }` for what the scenario
//! runner cannot express (tensor-array interfaces: its bindings have no
//! array element) or a module no scenario can be written for; `Abnormal`
//! for a crash, a time-out (per graph: a process running `n` graphs gets
//! `n` times the limit) or running out of memory. A failure while setting up
//! resources (before any pipeline) is the harness's, an [`OracleError`].
//!
//! Before the layer sees a module, the adapter applies the [`Workarounds`]
//! for documented layer bugs that would otherwise hide everything else
//! (see [`EmulationLayer::known_discrepancies`]), through the code the
//! `vulkan` oracle uses too ([`crate::external::consumer`]).
//!
//! A user's own build: `--oracle-path emulation-layer=DIR` (or
//! `SPVGRAPH_ORACLE_PATH_EMULATION_LAYER=DIR`), where `DIR` holds the two
//! layers (their manifests, e.g. an install's
//! `share/vulkan/explicit_layer.d/`, or only `libVkLayer_Graph.so` and
//! `libVkLayer_Tensor.so` of a build tree) and optionally a `scenario-runner`
//! executable and a Vulkan driver manifest (a `.json` with an `ICD` object),
//! found anywhere under `DIR`. What `DIR` lacks comes from `ci/setup-oracles`.
//!
//! The layers compile a GLSL shader per operator at pipeline creation, and
//! their glslang rebuilds its built-in symbol tables for every one. The
//! `spvgraph-glslang-keep` shim (`libspvgraph_glslang_keep.so`, built next to
//! `spvgraph`) is preloaded into scenario-runner to keep glslang initialized
//! in both layers ([`crate::external::consumer::glslang`]): the same shaders,
//! built once per process instead of once per shader. `SPVGRAPH_KEEP_GLSLANG=0`
//! or [`EmulationLayer::with_glslang_kept`] turns it off; the version line
//! says which.

mod run;
pub mod scenario;
mod setup;

pub use crate::external::consumer::env::{embedded_version, GRAPH_LAYER, INSTANCE_LAYERS, TENSOR_LAYER};
pub use crate::external::consumer::{Preparation, Prepared, RequestError, Slot, Workaround, Workarounds};
pub use run::{Marks, Phase, RunStats, RunnerLog};
pub use setup::Setup;

use crate::attribution::{Owner, Status};
use crate::external::consumer::glslang::{self, Preload};
use crate::external::consumer::TensorArrays;
use crate::features::Feature;
use crate::oracle::{ExecOutcome, ExecRequest, Executor, Instance, KnownDiscrepancy, Oracle, OracleError};
use crate::oracle::{PhaseTimes, Standalone};
use crate::tools::{Tool, Tools};
use run::{Job, Runner};
use spvgraph_ir::tosa::TosaOp;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// Prepares a request for the scenario runner, which cannot bind tensor
/// arrays: [`crate::external::consumer::prepare`] with that limit.
pub fn prepare(request: &ExecRequest<'_>, workarounds: Workarounds) -> Result<Preparation, RequestError> {
    crate::external::consumer::prepare(request, workarounds, RUNNER_ARRAYS)
}

/// Why tensor-array interfaces are unsupported here.
const RUNNER_ARRAYS: TensorArrays = TensorArrays::Unbindable(
    "scenario-runner cannot bind tensor arrays (its bindings have no array element; every resource is \
     arrayElement 0): the graph has a tensor-array input or output",
);

/// The oracle's registry name.
pub const NAME: &str = crate::registry::EMULATION_LAYER;

/// The emulation layer behind the [`Oracle`] interface.
#[derive(Debug)]
pub struct EmulationLayer {
    instance: Instance,
    setup: Result<Setup, Vec<String>>,
    tools: Tools,
    timeout: Duration,
    memory_bytes: Option<u64>,
    batch_size: usize,
    workarounds: Workarounds,
    keep_glslang: bool,
    glslang_log: Option<PathBuf>,
    preload: OnceLock<Result<Preload, String>>,
    version: OnceLock<Option<String>>,
    stats: Mutex<RunStats>,
}

impl EmulationLayer {
    /// The default time limit per graph.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
    /// The default number of graphs per scenario.
    pub const DEFAULT_BATCH_SIZE: usize = 16;

    /// The tools `ci/setup-oracles` installed.
    pub fn discover() -> EmulationLayer {
        EmulationLayer::from_config(&Tools::discover(), None)
    }

    /// The registry's constructor: the provisioned tools, or the user's
    /// build under `dir` (see the module documentation).
    pub fn from_config(tools: &Tools, dir: Option<&Path>) -> EmulationLayer {
        let setup = match dir {
            None => setup::provisioned(tools),
            Some(d) => setup::from_dir(tools, d),
        };
        EmulationLayer {
            instance: Instance::of(NAME, tools),
            setup,
            tools: tools.clone(),
            timeout: Self::DEFAULT_TIMEOUT,
            memory_bytes: Some(4 << 30),
            batch_size: Self::DEFAULT_BATCH_SIZE,
            workarounds: Workarounds::ALL,
            keep_glslang: glslang::enabled_by_env(),
            glslang_log: None,
            preload: OnceLock::new(),
            version: OnceLock::new(),
            stats: Mutex::new(RunStats::default()),
        }
    }

    /// Keeps the layers' glslang initialized in each runner process (the
    /// default, unless `SPVGRAPH_KEEP_GLSLANG=0`: the shim is preloaded), or
    /// not (the layers rebuild glslang's built-in tables for every shader, as
    /// they do on their own). The compiled shaders are the same either way.
    pub fn with_glslang_kept(mut self, keep: bool) -> EmulationLayer {
        self.keep_glslang = keep;
        self.preload = OnceLock::new();
        self.version = OnceLock::new();
        self
    }

    /// Has the shim append what it did to `log` (a line per library: `kept
    /// PATH`, or `refused PATH: why`): for tests and for a user who wants to
    /// see it act.
    pub fn with_glslang_log(mut self, log: Option<PathBuf>) -> EmulationLayer {
        self.glslang_log = log;
        self.preload = OnceLock::new();
        self
    }

    /// The shim and the offsets it calls, or why glslang is not kept
    /// initialized (switched off, no shim, no layer libraries, no symbol).
    pub fn glslang_preload(&self) -> Result<&Preload, String> {
        self.preload
            .get_or_init(|| {
                if !self.keep_glslang {
                    return Err(format!("switched off ({}=0)", glslang::KEEP_VARIABLE));
                }
                let setup = self.setup.as_ref().map_err(|_| "the oracle is unavailable".to_string())?;
                let libraries = setup.layer_libraries().ok_or_else(|| "no layer libraries".to_string())?;
                let mut p = Preload::for_libraries(libraries)?;
                p.log = self.glslang_log.clone();
                Ok(p)
            })
            .as_ref()
            .map_err(String::clone)
    }

    /// Sets the time limit per graph.
    pub fn with_timeout(mut self, timeout: Duration) -> EmulationLayer {
        self.timeout = timeout;
        self
    }

    /// Sets the resident-memory limit of one runner process.
    pub fn with_memory_limit(mut self, bytes: Option<u64>) -> EmulationLayer {
        self.memory_bytes = bytes;
        self
    }

    /// Sets how many graphs share one scenario (at least 1).
    pub fn with_batch_size(mut self, n: usize) -> EmulationLayer {
        self.batch_size = n.max(1);
        self
    }

    /// Chooses the work-arounds applied to modules.
    pub fn with_workarounds(mut self, w: Workarounds) -> EmulationLayer {
        self.workarounds = w;
        self
    }

    /// Graphs per scenario.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// What the runs so far cost.
    pub fn stats(&self) -> RunStats {
        self.stats.lock().map(|s| *s).unwrap_or_default()
    }

    /// The tools in use, or why they cannot be used.
    pub fn setup(&self) -> Result<&Setup, OracleError> {
        self.setup
            .as_ref()
            .map_err(|missing| OracleError::Unavailable { oracle: NAME.into(), reason: missing.join("; ") })
    }

    fn runner<'s>(&'s self, setup: &'s Setup) -> Runner<'s> {
        Runner {
            setup,
            timeout: self.timeout,
            memory_bytes: self.memory_bytes,
            stats: &self.stats,
            preload: self.glslang_preload().ok(),
        }
    }

    /// Writes the scenario of one request into `dir` (module, inputs,
    /// constants, `scenario.json`) and returns the shell command that runs
    /// it there: what a finding's reproduction needs. The environment is
    /// spelled out with the paths of this machine's tools.
    pub fn write_scenario(&self, request: &ExecRequest<'_>, dir: &Path) -> Result<String, OracleError> {
        let setup = self.setup()?;
        let prepared = match prepare(request, self.workarounds).map_err(|e| request_failed(&e))? {
            Preparation::Ready(p) => p,
            Preparation::Refused(kind, reason) => {
                return Err(OracleError::Failed { oracle: NAME.into(), reason: format!("{kind:?}: {reason}") })
            }
        };
        let entry = scenario::Entry { label: "g0".into(), graph: &prepared, inputs: request.inputs };
        scenario::write(dir, &[entry]).map_err(|e| OracleError::Failed { oracle: NAME.into(), reason: e })?;
        let cmd = self.runner(setup).command(Path::new("scenario.json"));
        let env: Vec<String> = cmd
            .get_envs()
            .filter_map(|(k, v)| Some(format!("{}={}", k.to_string_lossy(), v?.to_string_lossy())))
            .collect();
        let args: Vec<String> = cmd.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        Ok(format!("{} {} {}", env.join(" "), cmd.get_program().to_string_lossy(), args.join(" ")))
    }

    fn compute_version(&self) -> Option<String> {
        let setup = self.setup.as_ref().ok()?;
        let package = |t: Tool| self.tools.package_version(t);
        let layer = match (&setup.user_dir, setup.layer_libraries()) {
            (Some(_), Some([graph, _])) => {
                let v = embedded_version(graph).unwrap_or_else(|| "(version unknown)".into());
                format!("ai-ml-emulation-layer-for-vulkan {v} ({})", graph.display())
            }
            _ => package(Tool::VkLayerPath)?,
        };
        let runner = if setup.user_runner {
            let v = embedded_version(&setup.runner).unwrap_or_else(|| "(version unknown)".into());
            format!("ai-ml-sdk-scenario-runner {v} ({})", setup.runner.display())
        } else {
            package(Tool::ScenarioRunner).unwrap_or_else(|| format!("scenario-runner {}", setup.runner.display()))
        };
        let icds = || setup.env.icds.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(":");
        // lavapipe generates its code for this CPU: its ISA features belong
        // to the driver's version (a user's ICD may be a GPU: not said).
        let driver = if setup.env.user_icd {
            format!("Vulkan driver {}", icds())
        } else {
            let lavapipe = package(Tool::VkIcd).unwrap_or_else(|| format!("Vulkan driver {}", icds()));
            format!("{lavapipe} on {}", crate::host::cpu())
        };
        let glslang = match self.glslang_preload() {
            Ok(p) => {
                let libraries: Vec<PathBuf> = p.targets.iter().map(|(l, _)| l.clone()).collect();
                format!(
                    "; glslang kept initialized in {} (LD_PRELOAD {})",
                    glslang::file_names(&libraries),
                    glslang::file_names(std::slice::from_ref(&p.shim))
                )
            }
            Err(why) => format!("; glslang not kept: {why}"),
        };
        Some(format!("{layer}, {runner}, {driver}{glslang}"))
    }
}

fn request_failed(e: &RequestError) -> OracleError {
    OracleError::Failed { oracle: NAME.into(), reason: format!("the request does not fit its module: {}", e.0) }
}

impl Oracle for EmulationLayer {
    fn instance(&self) -> &Instance {
        &self.instance
    }

    /// A scenario costs about 250 ms to start: most hunt cases go to the
    /// validators, a twentieth here.
    fn default_sample(&self) -> f64 {
        0.05
    }

    fn preferred_batch(&self) -> usize {
        self.batch_size
    }

    fn available(&self) -> Result<(), OracleError> {
        self.instance.own(self.setup().map(|_| ()))
    }

    fn version(&self) -> Option<String> {
        self.version.get_or_init(|| self.compute_version()).clone()
    }

    fn known_discrepancies(&self) -> &'static [KnownDiscrepancy] {
        KNOWN
    }

    /// The layer's own code, then the runner that drives it, the driver it
    /// runs on, and the SPIRV-Tools it reads modules with.
    fn components(&self) -> &'static [Owner] {
        &[Owner::EmulationLayer, Owner::ScenarioRunner, Owner::Mesa, Owner::SpirvTools]
    }

    /// From the runner's log timestamps ([`RunnerLog::phases`], millisecond
    /// resolution): process, instance, device and tensor set-up and tear-down
    /// under `start`; preparing and writing the scenario, and pipeline
    /// creation (the layer compiling its shaders) under `compile`; dispatch
    /// and wait under `run`; writing and reading the output files under
    /// `readback`. A re-run of part of a failed batch counts again.
    fn phase_times(&self) -> PhaseTimes {
        self.stats().phases
    }

    crate::capabilities! { validator: no, executor: yes, producer: no, reader: no, referee: no }
}

impl Executor for EmulationLayer {
    /// The graph as the layer gets it (after the adapter's work-arounds), its
    /// inputs and graph constants, and a `scenario.json` for the runner.
    fn standalone_execute(&self, request: &ExecRequest<'_>, dir: &Path) -> Result<Option<Standalone>, OracleError> {
        let p = match prepare(request, self.workarounds) {
            Ok(Preparation::Ready(p)) => p,
            Ok(Preparation::Refused(..)) => return Ok(None),
            Err(e) => return Err(self.instance.own_error(request_failed(&e))),
        };
        let entry = scenario::Entry { label: "graph".into(), graph: &p, inputs: request.inputs };
        scenario::write(dir, &[entry]).map_err(|e| OracleError::Failed {
            oracle: self.instance.name().into(),
            reason: format!("cannot write the scenario: {e}"),
        })?;
        let mut look = format!("the runner's exit status and log, and `{}/graph.out<j>.npy`", scenario::OUTPUT_DIR);
        for w in &p.applied {
            look.push_str(&format!("; `graph.spv` is the module as the layer got it: {w}"));
        }
        Ok(Some(Standalone {
            tools: vec!["scenario-runner".into()],
            env: vec![
                ("VK_LAYER_PATH".into(), "$ORACLES/layers/1_graph:$ORACLES/layers/2_tensor".into()),
                ("VK_INSTANCE_LAYERS".into(), INSTANCE_LAYERS.into()),
                ("VK_ICD_FILENAMES".into(), "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json".into()),
            ],
            commands: vec![format!("scenario-runner --scenario scenario.json --output {}", scenario::OUTPUT_DIR)],
            look,
        }))
    }

    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        self.execute_batch(std::slice::from_ref(request)).pop().unwrap_or_else(|| {
            Err(OracleError::Failed {
                oracle: self.instance.name().into(),
                reason: "no outcome for the request".into(),
            })
        })
    }

    fn execute_batch(&self, requests: &[ExecRequest<'_>]) -> Vec<Result<ExecOutcome, OracleError>> {
        let setup = match self.instance.own(self.setup()) {
            Ok(s) => s,
            Err(e) => return requests.iter().map(|_| Err(e.clone())).collect(),
        };
        let mut results: Vec<Option<Result<ExecOutcome, OracleError>>> = vec![None; requests.len()];
        let mut ready = Vec::new();
        let preparing = std::time::Instant::now();
        for (i, r) in requests.iter().enumerate() {
            match prepare(r, self.workarounds) {
                Ok(Preparation::Ready(p)) => ready.push((i, p)),
                Ok(Preparation::Refused(kind, reason)) => results[i] = Some(Ok(ExecOutcome::Refused { kind, reason })),
                Err(e) => results[i] = Some(Err(request_failed(&e))),
            }
        }
        if let Ok(mut s) = self.stats.lock() {
            s.phases.compile += preparing.elapsed();
        }
        let runner = self.runner(setup);
        for chunk in ready.chunks(self.batch_size) {
            let jobs: Vec<Job<'_>> = chunk
                .iter()
                .map(|(i, p)| Job { label: format!("g{i}"), graph: p, inputs: requests[*i].inputs })
                .collect();
            for ((i, _), outcome) in chunk.iter().zip(runner.run(&jobs)) {
                results[*i] = Some(outcome);
            }
        }
        results
            .into_iter()
            .map(|r| r.unwrap_or_else(|| Err(OracleError::Failed { oracle: NAME.into(), reason: "not run".into() })))
            .map(|r| self.instance.own(r))
            .collect()
    }
}

/// A documented discrepancy of ai-ml-emulation-layer-for-vulkan 0.11.0: the
/// layer's own, open, with the features that trigger it.
const fn known(
    kind: &'static str,
    operator: Option<TosaOp>,
    features: &'static [Feature],
    why: &'static str,
    finding: &'static str,
) -> KnownDiscrepancy {
    KnownDiscrepancy { operator, features, ..KnownDiscrepancy::open(kind, Owner::EmulationLayer, why, finding) }
}

const SHARED_WHY: &str = "a value set as several graph outputs is written only to the last of them; the other \
    output tensors keep what they held (zeros) (worked around: such graphs are not run)";
const FFT_WHY: &str = "pipeline creation dies of SIGSEGV when a result of FFT2D/RFFT2D is not itself a graph output \
    (unused, or consumed by another operator)";
const MINMAX_WHY: &str = "the maximum (minimum) starts at the lowest (highest) finite value instead of -inf (+inf): \
    a slice or window of -inf (+inf) values gives -max (+max) finite, and a MAX_POOL2D window of only NaN with \
    nan_mode IGNORE gives -max finite instead of NaN";
const CTC_WHY: &str = "a scalar compile-time-constant operand (MUL shift, zero points, RESCALE multiplier/shift, PAD \
    pad_const) given by an OpGraphConstantARM is refused: 'Missing declared constant for id'";
const NULL_ROW_WHY: &str = "a tensor constant with an OpConstantNull row is misread (silently wrong values): the null \
    row is read as one element, so later elements shift and the end is left unwritten (zeros or, from run to run, \
    other values); integer and bool constants alike";

/// The documented discrepancies that are the layer's own, whichever way it
/// is driven: every one reproduces through the Vulkan API too
/// (`oracle/tests/it/emulation_layer_findings.rs`), so the `vulkan` oracle
/// documents them when it runs on the layers.
pub const LAYER_KNOWN: &[KnownDiscrepancy] = KNOWN;

/// The layer's documented discrepancies, each with a minimal module under
/// `corpus/findings/` (checked by `oracle/tests/it/emulation_layer_findings.rs`).
/// The first two and the shared-output one are worked around by default
/// ([`Workarounds`]). Rows match by the module features that trigger them,
/// so a bug that shows through any operator is recognised.
const KNOWN: &[KnownDiscrepancy] = &[
    known(
        "wrong-output",
        None,
        &[Feature::SeveralEntryPoints],
        "the entry-point name is ignored: every OpGraphEntryPointARM's graph is built into the pipeline, bound by \
         DescriptorSet/Binding, so another graph's results (or map::at / missing-shader errors) come back \
         (worked around: other entry points are removed)",
        "corpus/findings/emulation-layer-ignores-entry-point.spv",
    ),
    known(
        "refused-valid",
        None,
        &[Feature::DebugInfoInGraph],
        "NonSemantic.Graph.DebugInfo instructions in a graph body are refused ('Unsupported extension \
         NonSemantic.Graph.DebugInfo.1') instead of ignored (worked around: debug info is removed)",
        "corpus/findings/emulation-layer-rejects-debug-info.spv",
    ),
    KnownDiscrepancy {
        message: Some("Missing declared constant for id"),
        ..known(
            "refused-valid",
            None,
            &[Feature::GraphConstantAsCtc],
            CTC_WHY,
            "corpus/findings/emulation-layer-graph-constant-ctc-rejected.spv",
        )
    },
    known(
        "crash",
        Some(TosaOp::Fft2d),
        &[Feature::FftResultToOperator],
        FFT_WHY,
        "corpus/findings/emulation-layer-fft2d-result-to-operator-sigsegv.spv",
    ),
    known(
        "crash",
        Some(TosaOp::Rfft2d),
        &[Feature::FftResultToOperator],
        FFT_WHY,
        "corpus/findings/emulation-layer-fft2d-result-to-operator-sigsegv.spv",
    ),
    known(
        "wrong-output",
        Some(TosaOp::ReduceMax),
        &[],
        MINMAX_WHY,
        "corpus/findings/emulation-layer-reduce-max-all-minus-inf.spv",
    ),
    known(
        "wrong-output",
        Some(TosaOp::ReduceMin),
        &[],
        MINMAX_WHY,
        "corpus/findings/emulation-layer-reduce-max-all-minus-inf.spv",
    ),
    known(
        "wrong-output",
        Some(TosaOp::MaxPool2d),
        &[],
        MINMAX_WHY,
        "corpus/findings/emulation-layer-reduce-max-all-minus-inf.spv",
    ),
    KnownDiscrepancy {
        owner: Owner::EmulationLayer,
        ..known(
            "wrong-output",
            Some(TosaOp::Log),
            &[Feature::SubnormalInputs],
            "LOG of fp32/bf16 subnormal inputs is neither right nor flushed (-88 for 1e-40 instead of -92.1 or -inf): \
             the layer's log_guarded passes subnormals to GLSL log, which a Vulkan driver may flush to 0 and then \
             answer anything (log is undefined at 0; lavapipe gives about -88)",
            "corpus/findings/emulation-layer-log-subnormal-lavapipe.spv",
        )
    },
    known(
        "wrong-output",
        None,
        &[Feature::UnreadInput],
        "a graph with an input that no OpGraphInputARM reads (valid: SPV_ARM_graph does not ask every input to be \
         read) gives zeros for every output, silently",
        "corpus/findings/emulation-layer-unread-input-zeros.spv",
    ),
    known(
        "wrong-output",
        Some(TosaOp::Log),
        &[],
        "LOG of fp32 values near 1 is off by up to 1.4 times TOSA's bound (2^-24 absolute for |log x| < 0.1): the \
         layer uses GLSL log, whose Vulkan precision there is only 2^-21 absolute",
        "corpus/findings/emulation-layer-log-near-one-inaccurate.spv",
    ),
    known(
        "wrong-output",
        None,
        &[Feature::SharedOutput],
        SHARED_WHY,
        "corpus/findings/emulation-layer-shared-output.spv",
    ),
    known(
        "wrong-output",
        None,
        &[Feature::NullRow],
        NULL_ROW_WHY,
        "corpus/findings/emulation-layer-null-row-shifts-elements.spv",
    ),
    known(
        "wrong-output",
        None,
        &[Feature::NullRow],
        NULL_ROW_WHY,
        "corpus/findings/emulation-layer-bool-null-row-misread.spv",
    ),
    known(
        "wrong-output",
        None,
        &[Feature::NestedReplicate],
        "a tensor constant with an OpConstantCompositeReplicateEXT constituent of rank 2 or more (a replicated \
         block inside an OpConstantComposite) is misread (silently wrong values): the block is read as one element \
         per outer index, and the rest of the constant is left unwritten (zeros or, from run to run, other values); \
         the same block as a whole-tensor replicate, or written out, is right",
        "corpus/findings/emulation-layer-nested-replicate-misread.spv",
    ),
    KnownDiscrepancy {
        message: Some("Unsupported float constant encoding in composite constant"),
        ..known(
            "refused-valid",
            None,
            &[Feature::NullConstituent],
            "a tensor constant with an OpConstantNull constituent is refused: 'Unsupported float constant \
             encoding in composite constant'",
            "corpus/findings/emulation-layer-null-constituent-rejected.spv",
        )
    },
    KnownDiscrepancy {
        message: Some("Expected boolean constant for id"),
        status: Status::SpecAmbiguity,
        ..known(
            "refused-valid",
            None,
            &[Feature::NullBoolOperand],
            "OpConstantNull of bool as a boolean operand (e.g. ARITHMETIC_RIGHT_SHIFT round) is refused: \
             'Expected boolean constant for id %N, found constant type kind 1' (TOSA.001000.1 names \
             OpConstantTrue/OpConstantFalse for boolean operands; OpConstantNull of bool is a constant instruction \
             whose value is false, so whether it must be accepted is a spec question)",
            "corpus/findings/emulation-layer-null-bool-operand-rejected.spv",
        )
    },
    KnownDiscrepancy {
        status: Status::NotABug,
        ..known(
            "accepts-invalid",
            None,
            &[],
            "no TOSA rule is checked (shapes, enumerants, type rows, operand counts): such graphs run, with \
             truncated or zero-padded results, and dead instructions are never looked at; the runner's SPIR-V \
             validation catches only what SPIRV-Tools checks (a Vulkan consumer may do anything with an invalid \
             module: undefined behaviour, not a conformance bug)",
            "corpus/findings/emulation-layer-accepts-shape-mismatch.spv",
        )
    },
];

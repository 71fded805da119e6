//! The TOSA reference model (`tosa-tools`) as an executing oracle.
//!
//! A graph goes: SPIR-V module → TOSA MLIR ([`spvgraph_ir::mlir::module_to_mlir`])
//! → `tosa-opt --tosa-serialize` (a TOSA flatbuffer) → `tosa_reference_model`
//! with the inputs as `.npy` files → output `.npy` files → [`TensorData`].
//!
//! Conventions of the pinned tools, found by running them:
//!
//! * `tosa-opt` names the function arguments `TosaInput_<i>` and the results
//!   `TosaOutput_<j>` in order; the MLIR printer keeps InputIndex/OutputIndex
//!   order, so `ExecRequest::inputs[i]` is `TosaInput_<i>`.
//! * The model checks each `.npy` file's dtype against the tensor type:
//!   bf16 must be `<V2`, fp8e4m3 `<V1` and fp8e5m2 `|u1` (raw bits); bool
//!   `|b1`, i48 `<i8`, the rest the usual numpy types
//!   ([`Dtypes::ReferenceModel`]). Outputs use the same dtypes. In precise
//!   mode (`--precise_mode=1`) every floating-point output is `<f8`.
//! * Exit status 0 = valid result, 1 = UNPREDICTABLE (a REQUIRE failed),
//!   2 = ERROR (an ERROR_IF failed); anything else is a crash. On a crash it
//!   starts `gdb` for a backtrace unless `TOSA_MODEL_NO_BACKTRACE` is set.
//! * With a test descriptor whose `test_requirements.bounds_file_required`
//!   is true, precise mode evaluates the graph a second time on absolute
//!   values and writes `bounds_<ofm_file>`: the bounds tensor of the
//!   compliance rules ([`crate::compliance`]).
//!
//! Every run works in its own scratch directory, removed afterwards, and
//! every tool runs under a time limit.

use super::process::{self, Cost, Ended, Limits, ProcessRun, ScratchDir};
use super::translate::tosa_mlir_or_unsupported;
use crate::attribution::{Owner, Status};
use crate::compliance::{compare_run, ReferenceTensor};
pub use crate::compliance::{Agreement, PreciseOutcome, PreciseOutput, RowTally, SweepTally};
use crate::oracle::{Abnormal, ExecOutcome, ExecRequest, Executor, Instance, KnownDiscrepancy, Oracle, OracleError};
use crate::oracle::{PhaseTimes, Referee, Refusal, Standalone};
use crate::tools::{Tool, Tools};
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::npy::{Dtypes, NpyArray, NpyError};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const NAME: &str = "tosa-ref";

/// The TOSA reference model behind the [`Oracle`] interface.
#[derive(Clone, Debug)]
pub struct TosaReferenceModel {
    instance: Instance,
    tools: Result<(PathBuf, PathBuf), String>,
    timeout: Duration,
    level: Option<String>,
    version: Option<String>,
    /// Where its time went ([`Oracle::phase_times`]), shared by its clones.
    times: Arc<Mutex<PhaseTimes>>,
}

/// What one execution cost in each of the model's two processes (`None`:
/// that tool did not run). A retry without the bounds pass replaces the
/// first attempt's figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReferenceCosts {
    /// `tosa-opt --tosa-serialize` (MLIR to flatbuffer).
    pub tosa_opt: Option<Cost>,
    /// `tosa_reference_model` itself.
    pub model: Option<Cost>,
}

/// A graph ready for the model: its MLIR text and its outputs' element types.
#[derive(Clone, Debug, PartialEq)]
pub struct PreparedGraph {
    /// TOSA MLIR of the entry point.
    pub mlir: String,
    /// Element type of every output, in OutputIndex order (arrays flattened).
    pub outputs: Vec<ElemType>,
}

impl Default for TosaReferenceModel {
    fn default() -> Self {
        TosaReferenceModel::discover()
    }
}

impl TosaReferenceModel {
    /// The default time limit per tool run.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

    /// Finds `tosa-opt` and `tosa_reference_model` through [`Tools::discover`].
    pub fn discover() -> TosaReferenceModel {
        let tools = Tools::discover();
        let found = (|| {
            let opt = tools.get(Tool::TosaOpt).map_err(|e| e.to_string())?.to_path_buf();
            let model = tools.get(Tool::TosaReferenceModel).map_err(|e| e.to_string())?.to_path_buf();
            Ok((opt, model))
        })();
        TosaReferenceModel {
            instance: Instance::release(NAME),
            tools: found.map_err(|e: String| format!("{e} (tosa-tools: run ci/setup-oracles)")),
            timeout: Self::DEFAULT_TIMEOUT,
            level: None,
            version: tools.package_version(Tool::TosaReferenceModel),
            times: Arc::default(),
        }
    }

    /// The registry's constructor: the tools `ci/setup-oracles` installed,
    /// or, when `dir` is given (`--oracle-path tosa-ref=DIR`), `tosa-opt`
    /// and `tosa_reference_model` from `DIR` (or `DIR/bin`).
    pub fn from_config(tools: &Tools, dir: Option<&Path>) -> TosaReferenceModel {
        let Some(dir) = dir else {
            let mut m = TosaReferenceModel::discover();
            m.version = tools.package_version(Tool::TosaReferenceModel);
            m.instance = Instance::of(NAME, tools);
            return m;
        };
        let find = |name: &str| [dir.join(name), dir.join("bin").join(name)].into_iter().find(|p| p.is_file());
        let found = match (find("tosa-opt"), find("tosa_reference_model")) {
            (Some(opt), Some(model)) => Ok((opt, model)),
            _ => Err(format!("{}: tosa-opt and tosa_reference_model not both found there", dir.display())),
        };
        TosaReferenceModel {
            instance: Instance::of(NAME, tools),
            tools: found,
            timeout: Self::DEFAULT_TIMEOUT,
            level: None,
            version: None,
            times: Arc::default(),
        }
    }

    /// Uses these two executables.
    pub fn with_tools(tosa_opt: PathBuf, reference_model: PathBuf) -> TosaReferenceModel {
        TosaReferenceModel {
            instance: Instance::release(NAME),
            tools: Ok((tosa_opt, reference_model)),
            timeout: Self::DEFAULT_TIMEOUT,
            level: None,
            version: None,
            times: Arc::default(),
        }
    }

    /// Sets the time limit of each tool run.
    pub fn with_timeout(mut self, timeout: Duration) -> TosaReferenceModel {
        self.timeout = timeout;
        self
    }

    /// Sets the model's `--tosa_level` (`EIGHTK` or `NONE`; the model's default is used otherwise).
    pub fn with_level(mut self, level: &str) -> TosaReferenceModel {
        self.level = Some(level.to_string());
        self
    }

    /// Adds the time since `start` to one phase of [`Oracle::phase_times`].
    fn count(&self, start: Instant, phase: fn(&mut PhaseTimes) -> &mut Duration) {
        // A panic while holding the lock leaves usable figures: each update is one addition.
        *phase(&mut self.times.lock().unwrap_or_else(std::sync::PoisonError::into_inner)) += start.elapsed();
    }

    fn paths(&self) -> Result<(&Path, &Path), OracleError> {
        match &self.tools {
            Ok((opt, model)) => Ok((opt.as_path(), model.as_path())),
            Err(reason) => Err(OracleError::Unavailable { oracle: NAME.into(), reason: reason.clone() }),
        }
    }

    /// Decodes the request's module and prints its entry point as MLIR; or
    /// the model's refusal: an invalid module, or one with no TOSA MLIR form
    /// (unsupported: the model cannot be handed it).
    pub fn prepare(&self, request: &ExecRequest<'_>) -> Result<Result<PreparedGraph, ExecOutcome>, OracleError> {
        let start = Instant::now();
        let prepared = self.prepare_untimed(request);
        self.count(start, |t| &mut t.compile);
        prepared
    }

    fn prepare_untimed(&self, request: &ExecRequest<'_>) -> Result<Result<PreparedGraph, ExecOutcome>, OracleError> {
        let invalid = |reason: String| Ok(Err(ExecOutcome::Refused { kind: Refusal::Invalid, reason }));
        let module = match Module::decode_words(request.module) {
            Ok(m) => m,
            Err(e) => return invalid(format!("the module does not decode: {e}")),
        };
        let analysis = Analysis::new(&module);
        let entry = match entry_point(&analysis, request.entry_point) {
            Ok(e) => e,
            Err(reason) => return invalid(reason),
        };
        let outputs = match output_types(&analysis, &entry) {
            Ok(o) => o,
            Err(reason) => return invalid(reason),
        };
        Ok(tosa_mlir_or_unsupported(NAME, &module, &entry, request.graph_constants)?
            .map(|mlir| PreparedGraph { mlir, outputs }))
    }

    /// Runs TOSA MLIR text on `inputs` (`TosaInput_<i>` in order); `outputs`
    /// are the element types of the results, in order.
    pub fn run_mlir(
        &self,
        mlir: &str,
        inputs: &[TensorData],
        outputs: &[ElemType],
    ) -> Result<ExecOutcome, OracleError> {
        self.run_mlir_measured(mlir, inputs, outputs, &mut ReferenceCosts::default())
    }

    /// [`TosaReferenceModel::run_mlir`], recording each tool's time and peak
    /// memory in `costs`.
    pub fn run_mlir_measured(
        &self,
        mlir: &str,
        inputs: &[TensorData],
        outputs: &[ElemType],
        costs: &mut ReferenceCosts,
    ) -> Result<ExecOutcome, OracleError> {
        let dir = scratch()?;
        match self.run_in(&dir, mlir, inputs, outputs, false, costs)? {
            Run::Refused(kind, reason) => Ok(ExecOutcome::Refused { kind, reason }),
            Run::Abnormal(how, detail) => Ok(ExecOutcome::Abnormal { how, detail }),
            Run::Done => {
                let start = Instant::now();
                let read = read_typed_outputs(dir.path(), outputs);
                self.count(start, |t| &mut t.readback);
                read.map(ExecOutcome::Outputs)
            }
        }
    }

    /// Like [`TosaReferenceModel::run_mlir`] in precise mode: floating-point
    /// results in fp64, with the bounds tensor of each output.
    pub fn run_mlir_precise(
        &self,
        mlir: &str,
        inputs: &[TensorData],
        outputs: &[ElemType],
    ) -> Result<PreciseOutcome, OracleError> {
        let dir = scratch()?;
        match self.run_in(&dir, mlir, inputs, outputs, true, &mut ReferenceCosts::default())? {
            Run::Refused(kind, reason) => Ok(PreciseOutcome::Refused { kind, reason }),
            Run::Abnormal(how, detail) => Ok(PreciseOutcome::Abnormal { how, detail }),
            Run::Done => {
                let start = Instant::now();
                let read = read_precise_outputs(dir.path(), outputs);
                self.count(start, |t| &mut t.readback);
                read.map(PreciseOutcome::Outputs)
            }
        }
    }

    /// [`crate::oracle::Executor::execute`], with what each of the model's tools cost.
    pub fn execute_measured(&self, request: &ExecRequest<'_>) -> Result<(ExecOutcome, ReferenceCosts), OracleError> {
        self.paths()?;
        let mut costs = ReferenceCosts::default();
        let outcome = match self.prepare(request)? {
            Err(refused) => refused,
            Ok(g) => self.run_mlir_measured(&g.mlir, request.inputs, &g.outputs, &mut costs)?,
        };
        Ok((outcome, costs))
    }

    /// The precise-mode answer for a request: fp64 references and bounds
    /// tensors for [`crate::compliance::compare`].
    pub fn execute_precise(&self, request: &ExecRequest<'_>) -> Result<PreciseOutcome, OracleError> {
        self.paths()?;
        match self.prepare(request)? {
            Err(ExecOutcome::Refused { kind, reason }) => Ok(PreciseOutcome::Refused { kind, reason }),
            Err(ExecOutcome::Abnormal { how, detail }) => Ok(PreciseOutcome::Abnormal { how, detail }),
            Err(ExecOutcome::Outputs(_)) => Err(failed("no outputs were computed while preparing the graph")),
            Ok(g) => self.run_mlir_precise(&g.mlir, request.inputs, &g.outputs),
        }
    }

    fn run_in(
        &self,
        dir: &ScratchDir,
        mlir: &str,
        inputs: &[TensorData],
        outputs: &[ElemType],
        precise: bool,
        costs: &mut ReferenceCosts,
    ) -> Result<Run, OracleError> {
        // The bounds pass is only useful, and only works, where a compliance
        // mode reads it: the model aborts ("getFpMinimum") when asked for the
        // bounds of an integer dot product. Floating-point outputs and
        // RESCALE (INEXACT_ROUND gives its upper limit) need it.
        let bounds = precise && (outputs.iter().any(|e| e.is_float()) || mlir.contains("tosa.rescale"));
        match self.run_once(dir, mlir, inputs, outputs, Mode { precise, bounds }, costs) {
            Ok(Run::Abnormal(_, detail)) if bounds && detail.contains("getFpMinimum") => {
                self.run_once(dir, mlir, inputs, outputs, Mode { precise, bounds: false }, costs)
            }
            other => other,
        }
    }

    fn run_once(
        &self,
        dir: &ScratchDir,
        mlir: &str,
        inputs: &[TensorData],
        outputs: &[ElemType],
        Mode { precise, bounds }: Mode,
        costs: &mut ReferenceCosts,
    ) -> Result<Run, OracleError> {
        *costs = ReferenceCosts::default();
        let (opt, _) = self.paths()?;
        let start = Instant::now();
        let serialized = self.serialize(dir, mlir, opt, costs);
        self.count(start, |t| &mut t.compile);
        let tosa_path = match serialized? {
            Ok(p) => p,
            Err(end) => return Ok(end),
        };
        let start = Instant::now();
        let ran = self.run_model(dir, &tosa_path, inputs, outputs, Mode { precise, bounds }, costs);
        self.count(start, |t| &mut t.run);
        ran
    }

    /// `tosa-opt --tosa-serialize` on `mlir` in `dir`: the flatbuffer's
    /// path, or how the serializer ended.
    fn serialize(
        &self,
        dir: &ScratchDir,
        mlir: &str,
        opt: &Path,
        costs: &mut ReferenceCosts,
    ) -> Result<Result<PathBuf, Run>, OracleError> {
        let d = dir.path();
        let mlir_path = d.join("graph.mlir");
        let tosa_path = d.join("graph.tosa");
        write_file(&mlir_path, mlir.as_bytes())?;
        let mut cmd = Command::new(opt);
        cmd.arg(&mlir_path)
            .arg(format!("--tosa-serialize=tosa-flatbuffer-filename={}", tosa_path.display()))
            .args(["-o", "/dev/null"]);
        let ser = run_tool(cmd, d, self.timeout)?;
        costs.tosa_opt = Some(ser.cost());
        if let Some(how) = ser.abnormal() {
            return Ok(Err(Run::Abnormal(how, format!("tosa-opt: {}", tail(&ser)))));
        }
        if !ser.success() {
            let text = tail(&ser);
            // MLIR's TOSA verifier reports operation errors as "'tosa.x' op ...":
            // those are statements about the graph. Anything else (parse
            // errors, crashes) means this harness produced something wrong.
            if text.contains("' op ") {
                return Ok(Err(Run::Refused(Refusal::Invalid, format!("tosa-opt rejected the graph: {text}"))));
            }
            return Err(failed(format!("tosa-opt failed ({}): {text}", ser.status_text())));
        }
        Ok(Ok(tosa_path))
    }

    /// `tosa_reference_model` on the flatbuffer at `tosa_path` and `inputs`
    /// (written as `.npy` files), in `dir`.
    fn run_model(
        &self,
        dir: &ScratchDir,
        tosa_path: &Path,
        inputs: &[TensorData],
        outputs: &[ElemType],
        Mode { precise, bounds }: Mode,
        costs: &mut ReferenceCosts,
    ) -> Result<Run, OracleError> {
        let (_, model) = self.paths()?;
        let d = dir.path();
        // The serializer names results after the operators that produce them,
        // and a result that is a graph input keeps the input's name, so the
        // names come from the flatbuffer rather than from their positions.
        let flatbuffer = std::fs::read(tosa_path).map_err(|e| failed(format!("{}: {e}", tosa_path.display())))?;
        let (in_names, out_names) = flatbuffer_io_names(&flatbuffer)
            .map_err(|e| failed(format!("{}: cannot read the graph's inputs and outputs: {e}", tosa_path.display())))?;
        if in_names.len() != inputs.len() || out_names.len() != outputs.len() {
            return Err(failed(format!(
                "the serialized graph has {} inputs and {} outputs, the request {} and {}",
                in_names.len(),
                out_names.len(),
                inputs.len(),
                outputs.len()
            )));
        }
        let mut ifm_files = Vec::with_capacity(inputs.len());
        for (i, t) in inputs.iter().enumerate() {
            let p = d.join(format!("in{i}.npy"));
            write_npy(&p, t)?;
            ifm_files.push(p.display().to_string());
        }
        let out_dir = d.join("out");
        // A retry must not read files left by the first attempt.
        let _ = std::fs::remove_dir_all(&out_dir);
        std::fs::create_dir_all(&out_dir).map_err(|e| failed(format!("{}: {e}", out_dir.display())))?;
        let desc = serde_json::json!({
            "tosa_file": tosa_path.display().to_string(),
            "ifm_name": in_names,
            "ifm_file": ifm_files,
            "ofm_name": out_names,
            "ofm_file": (0..outputs.len()).map(|j| format!("out{j}.npy")).collect::<Vec<_>>(),
            "test_requirements": { "profiles_supported": ["tosa-pro-int", "tosa-pro-fp"], "bounds_file_required": bounds },
        });
        let desc_path = d.join("desc.json");
        write_file(&desc_path, desc.to_string().as_bytes())?;
        let mut cmd = Command::new(model);
        cmd.arg("--test_desc").arg(&desc_path).arg("--output_dir").arg(&out_dir);
        if precise {
            cmd.arg("--precise_mode=1");
        }
        if let Some(level) = &self.level {
            cmd.args(["--tosa_level", level]);
        }
        cmd.env("TOSA_MODEL_NO_BACKTRACE", "1");
        let run = run_tool(cmd, d, self.timeout)?;
        costs.model = Some(run.cost());
        let stderr = run.stderr_text();
        match run.ended {
            Ended::Exited(0) => Ok(Run::Done),
            Ended::Exited(1) => Ok(Run::Refused(Refusal::Unpredictable, tail(&run))),
            Ended::Exited(2) => Ok(Run::Refused(Refusal::Invalid, tail(&run))),
            // After a failed REQUIRE the model keeps evaluating and can then
            // crash (INTDIV by zero dies of SIGFPE, exit 248): the graph
            // status it had already set is the answer, and unpredictable
            // dominates an error.
            _ if stderr.contains("REQUIRE() fails") || stderr.contains("LEVEL_CHECK() fails") => {
                let reason = format!("{} (the model then stopped: {})", tail(&run), run.status_text());
                Ok(Run::Refused(Refusal::Unpredictable, reason))
            }
            _ if stderr.contains("ERROR_IF() fails") => {
                let reason = format!("{} (the model then stopped: {})", tail(&run), run.status_text());
                Ok(Run::Refused(Refusal::Invalid, reason))
            }
            Ended::Abnormal(how) => Ok(Run::Abnormal(how, tail(&run))),
            Ended::Exited(code) => {
                Err(failed(format!("tosa_reference_model: unexpected exit status {code}: {}", tail(&run))))
            }
        }
    }
}

/// The reference model's documented behaviours, each with its case under
/// `corpus/findings/` (`oracle/tests/it/reference_findings.rs` checks both).
const KNOWN: &[KnownDiscrepancy] = &[
    KnownDiscrepancy {
        kind: "crash",
        rule: None,
        operator: Some(TosaOp::Intdiv),
        mutator: None,
        why: "INTDIV by zero reports the failed REQUIRE and then divides anyway: the process dies of SIGFPE instead \
              of ending with exit status 1 (UNPREDICTABLE) (worked around: such a crash with the REQUIRE in its log is \
              read as an unpredictable graph)",
        finding: "corpus/findings/ref-intdiv-zero-sigfpe.spv",
        message: None,
        features: &[],
        owner: Owner::TosaReferenceModel,
        status: Status::Open,
        upstream: None,
    },
    KnownDiscrepancy {
        kind: "crash",
        rule: None,
        operator: None,
        mutator: None,
        why: "asked for a bounds file (test_requirements.bounds_file_required) in precise mode on a graph with an \
              integer dot product, the model writes the exact results and then aborts in getFpMinimum(): bounds are \
              defined for floating point only, so the question was wrong (the adapter asks for bounds only when an \
              output is floating point, and retries without them after this abort)",
        finding: "corpus/findings/ref-precise-bounds-int-matmul.spv",
        message: None,
        features: &[],
        owner: Owner::TosaReferenceModel,
        status: Status::NotABug,
        upstream: None,
    },
];

impl Oracle for TosaReferenceModel {
    fn instance(&self) -> &Instance {
        &self.instance
    }

    fn known_discrepancies(&self) -> &'static [KnownDiscrepancy] {
        KNOWN
    }

    /// The reference model, then the tosa-opt (upstream MLIR's TOSA dialect)
    /// that serializes the graph for it.
    fn components(&self) -> &'static [Owner] {
        &[Owner::TosaReferenceModel, Owner::LlvmMlir]
    }

    // About 50 ms a graph: a twentieth of the hunt's cases, as a second
    // executor; it also referees every output disagreement.
    /// It runs the graph's TOSA MLIR.
    fn reads_spirv(&self) -> bool {
        false
    }

    fn default_sample(&self) -> f64 {
        0.05
    }

    fn version(&self) -> Option<String> {
        self.version.clone()
    }

    fn available(&self) -> Result<(), OracleError> {
        self.instance.own(self.paths().map(|_| ()))
    }

    /// Where the time went, over every run (the referee's precise runs
    /// too): `compile` is the translation to TOSA MLIR and `tosa-opt
    /// --tosa-serialize` (process start included); `run` is the reference
    /// model's process with its input files and test descriptor; `readback`
    /// is reading its `.npy` outputs. `start` stays zero: no process
    /// outlives a call.
    fn phase_times(&self) -> PhaseTimes {
        *self.times.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    crate::capabilities! { validator: no, executor: yes, producer: no, reader: no, referee: yes }
}

impl Executor for TosaReferenceModel {
    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        self.instance.own(self.paths().and_then(|_| match self.prepare(request)? {
            Err(refused) => Ok(refused),
            Ok(g) => self.run_mlir(&g.mlir, request.inputs, &g.outputs),
        }))
    }

    /// The graph's TOSA MLIR, its inputs, the test descriptor, and the
    /// `tosa-opt` (serialize) and `tosa_reference_model` lines.
    fn standalone_execute(&self, request: &ExecRequest<'_>, dir: &Path) -> Result<Option<Standalone>, OracleError> {
        self.instance.own(self.reproducer(request, dir))
    }
}

impl Referee for TosaReferenceModel {
    fn execute_precise(&self, request: &ExecRequest<'_>) -> Result<PreciseOutcome, OracleError> {
        self.instance.own(TosaReferenceModel::execute_precise(self, request))
    }
}

impl TosaReferenceModel {
    /// Writes [`Executor::standalone_execute`]'s reproducer into `dir`.
    fn reproducer(&self, request: &ExecRequest<'_>, dir: &Path) -> Result<Option<Standalone>, OracleError> {
        let (opt, _) = self.paths()?;
        let Ok(g) = self.prepare(request)? else { return Ok(None) };
        write_file(&dir.join("graph.mlir"), g.mlir.as_bytes())?;
        let serialize = "--tosa-serialize=tosa-flatbuffer-filename=graph.tosa";
        let mut cmd = Command::new(opt);
        cmd.args(["graph.mlir", serialize, "-o", "/dev/null"]);
        let ser = run_tool(cmd, dir, self.timeout)?;
        if !ser.success() {
            return Ok(None);
        }
        let flatbuffer = std::fs::read(dir.join("graph.tosa")).map_err(|e| failed(format!("graph.tosa: {e}")))?;
        let (in_names, out_names) = flatbuffer_io_names(&flatbuffer).map_err(|e| failed(format!("graph.tosa: {e}")))?;
        let mut ifm_files = Vec::new();
        for (i, t) in request.inputs.iter().enumerate() {
            write_npy(&dir.join(format!("in{i}.npy")), t)?;
            ifm_files.push(format!("in{i}.npy"));
        }
        let floating = g.outputs.iter().any(|e| e.is_float());
        let desc = serde_json::json!({
            "tosa_file": "graph.tosa",
            "ifm_name": in_names,
            "ifm_file": ifm_files,
            "ofm_name": out_names,
            "ofm_file": (0..g.outputs.len()).map(|j| format!("out{j}.npy")).collect::<Vec<_>>(),
            "test_requirements": { "profiles_supported": ["tosa-pro-int", "tosa-pro-fp"], "bounds_file_required": floating },
        });
        let text = serde_json::to_string_pretty(&desc).map_err(|e| failed(e.to_string()))?;
        write_file(&dir.join("desc.json"), text.as_bytes())?;
        Ok(Some(Standalone {
            tools: vec!["tosa-opt".into(), "tosa_reference_model".into()],
            env: vec![("TOSA_MODEL_NO_BACKTRACE".into(), "1".into())],
            commands: vec![
                format!("tosa-opt graph.mlir {serialize} -o /dev/null"),
                "mkdir -p out".into(),
                "tosa_reference_model --test_desc desc.json --output_dir out --precise_mode=1".into(),
            ],
            look: "the exit status (0 valid, 1 unpredictable, 2 error) and out/out<j>.npy (fp64 in precise mode)"
                .into(),
        }))
    }
}

/// Runs `request` on `candidate` and on the reference model (precise mode)
/// and compares the candidate with it ([`crate::compliance::compare_run`]).
pub fn check_against_reference(
    model: &TosaReferenceModel,
    candidate: &dyn Oracle,
    request: &ExecRequest<'_>,
) -> Result<Agreement, OracleError> {
    let reference = model.execute_precise(request)?;
    compare_run(request, &reference, candidate.name(), candidate.executor().and_then(|e| e.execute(request)))
}

/// How the model runs: precise mode, and whether it writes bounds tensors.
#[derive(Clone, Copy)]
struct Mode {
    precise: bool,
    bounds: bool,
}

enum Run {
    Done,
    Refused(Refusal, String),
    Abnormal(Abnormal, String),
}

/// The typed outputs the model wrote into `dir/out`.
fn read_typed_outputs(dir: &Path, outputs: &[ElemType]) -> Result<Vec<TensorData>, OracleError> {
    let mut result = Vec::with_capacity(outputs.len());
    for (j, &elem) in outputs.iter().enumerate() {
        let path = dir.join("out").join(format!("out{j}.npy"));
        match read_npy(&path, elem).map_err(failed)? {
            ReferenceTensor::Typed(t) => result.push(t),
            ReferenceTensor::Precise { .. } => {
                return Err(failed(format!("{}: fp64 data outside precise mode", path.display())))
            }
        }
    }
    Ok(result)
}

/// The precise-mode outputs (and bounds tensors) the model wrote into `dir/out`.
fn read_precise_outputs(dir: &Path, outputs: &[ElemType]) -> Result<Vec<PreciseOutput>, OracleError> {
    let mut result = Vec::with_capacity(outputs.len());
    for (j, &elem) in outputs.iter().enumerate() {
        let out = dir.join("out");
        let reference = read_npy(&out.join(format!("out{j}.npy")), elem).map_err(failed)?;
        let bounds_path = out.join(format!("bounds_out{j}.npy"));
        let bounds = if bounds_path.is_file() { Some(read_npy(&bounds_path, elem).map_err(failed)?) } else { None };
        result.push(PreciseOutput { reference, bounds });
    }
    Ok(result)
}

fn scratch() -> Result<ScratchDir, OracleError> {
    ScratchDir::new("tosa-ref").map_err(|e| failed(e.to_string()))
}

fn failed(reason: impl Into<String>) -> OracleError {
    OracleError::Failed { oracle: NAME.into(), reason: reason.into() }
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), OracleError> {
    std::fs::write(path, bytes).map_err(|e| failed(format!("{}: cannot write: {e}", path.display())))
}

/// The name of the requested entry point, or of the first one.
fn entry_point(a: &Analysis<'_>, wanted: Option<&str>) -> Result<String, String> {
    let names: Vec<&str> = a
        .graph_entry_points
        .iter()
        .filter_map(|&i| match a.module.insts.get(i) {
            Some(Inst::GraphEntryPoint { name, .. }) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    match wanted {
        Some(w) if names.contains(&w) => Ok(w.to_string()),
        Some(w) => Err(format!("no OpGraphEntryPointARM named {w:?} (the module has {names:?})")),
        None => names.first().map(|n| n.to_string()).ok_or_else(|| "the module has no OpGraphEntryPointARM".into()),
    }
}

/// Element types of the entry point's outputs, tensor arrays flattened.
fn output_types(a: &Analysis<'_>, entry: &str) -> Result<Vec<ElemType>, String> {
    let graph = a.graph_entry_points.iter().find_map(|&i| match a.module.insts.get(i) {
        Some(Inst::GraphEntryPoint { name, graph, .. }) if name == entry => Some(*graph),
        _ => None,
    });
    let graph = graph.ok_or_else(|| format!("no entry point {entry:?}"))?;
    let view = a.graph(graph).ok_or_else(|| format!("entry point {entry:?} names {graph}, which is not a graph"))?;
    let Some(Type::Graph { outputs, .. }) = a.ty(view.ty) else {
        return Err(format!("the type of graph {graph} is not an OpTypeGraphARM"));
    };
    let mut elems = Vec::new();
    for ty in outputs {
        let (tensor, count) = match a.ty(ty) {
            Some(Type::Array { element, length: Some(n) }) => (element, n),
            _ => (ty, 1),
        };
        let elem = a
            .tensor_type(tensor)
            .and_then(|t| t.elem)
            .ok_or_else(|| format!("output type {ty} is not a tensor of a TOSA element type"))?;
        for _ in 0..count.min(1 << 16) {
            elems.push(elem);
        }
    }
    Ok(elems)
}

// ---- scratch directories and processes -------------------------------------

/// Runs one of the model's tools under the time limit, in `dir`.
fn run_tool(cmd: Command, dir: &Path, timeout: Duration) -> Result<ProcessRun, OracleError> {
    process::run(cmd, dir, &Limits { timeout, memory_bytes: None }).map_err(|e| failed(e.to_string()))
}

/// The end of a tool's diagnostics, without the model's debugger chatter.
fn tail(run: &ProcessRun) -> String {
    run.tail(12)
}

// ---- the serialized graph's input and output names ----------------------------

/// The input and output tensor names of the `main` block of a TOSA flatbuffer
/// (schema `tosa.fbs`: `TosaGraph.regions[].blocks[]` with `name`, `inputs`
/// and `outputs` as fields 0, 3 and 4 of `TosaBasicBlock`).
pub fn flatbuffer_io_names(buf: &[u8]) -> Result<(Vec<String>, Vec<String>), String> {
    let fb = Flatbuffer(buf);
    let root = fb.deref(0)?;
    let regions = fb.field(root, 1)?.ok_or("the graph has no regions")?;
    let mut first = None;
    for region in fb.tables(regions)? {
        let Some(blocks) = fb.field(region, 1)? else { continue };
        for block in fb.tables(blocks)? {
            let name = match fb.field(block, 0)? {
                Some(n) => fb.string(n)?,
                None => String::new(),
            };
            let names = |i: usize| -> Result<Vec<String>, String> {
                match fb.field(block, i)? {
                    Some(v) => fb.tables(v)?.into_iter().map(|s| fb.string(s)).collect(),
                    None => Ok(Vec::new()),
                }
            };
            let io = (names(3)?, names(4)?);
            if name == "main" {
                return Ok(io);
            }
            first.get_or_insert(io);
        }
    }
    first.ok_or_else(|| "the graph has no basic block".into())
}

/// Bounds-checked reads of a flatbuffer.
struct Flatbuffer<'b>(&'b [u8]);

impl Flatbuffer<'_> {
    fn u32_at(&self, at: usize) -> Result<u32, String> {
        let b = self.0.get(at..at.checked_add(4).ok_or("offset overflow")?).ok_or("flatbuffer truncated")?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u16_at(&self, at: usize) -> Result<u16, String> {
        let b = self.0.get(at..at.checked_add(2).ok_or("offset overflow")?).ok_or("flatbuffer truncated")?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// Follows the unsigned offset stored at `at`.
    fn deref(&self, at: usize) -> Result<usize, String> {
        at.checked_add(self.u32_at(at)? as usize).ok_or_else(|| "offset overflow".into())
    }

    /// The position of the offset-valued field `index` of the table at `table`, followed.
    fn field(&self, table: usize, index: usize) -> Result<Option<usize>, String> {
        let vtable = (table as i64) - i64::from(self.u32_at(table)? as i32);
        let vtable = usize::try_from(vtable).map_err(|_| "bad vtable offset")?;
        let vtable_len = usize::from(self.u16_at(vtable)?);
        let slot = 4 + 2 * index;
        if slot + 2 > vtable_len {
            return Ok(None);
        }
        match self.u16_at(vtable + slot)? {
            0 => Ok(None),
            off => self.deref(table + usize::from(off)).map(Some),
        }
    }

    /// The element positions of a vector of tables or strings.
    fn tables(&self, vector: usize) -> Result<Vec<usize>, String> {
        let len = self.u32_at(vector)? as usize;
        if len > self.0.len() / 4 {
            return Err("vector longer than the buffer".into());
        }
        (0..len).map(|i| self.deref(vector + 4 + 4 * i)).collect()
    }

    fn string(&self, at: usize) -> Result<String, String> {
        let len = self.u32_at(at)? as usize;
        let bytes = self.0.get(at + 4..at + 4 + len).ok_or("string past the end of the buffer")?;
        String::from_utf8(bytes.to_vec()).map_err(|_| "a name is not UTF-8".into())
    }
}

// ---- .npy files in the model's dtypes -----------------------------------------

/// Writes a tensor as a `.npy` file in the model's dtypes
/// ([`Dtypes::ReferenceModel`]).
pub fn write_npy(path: &Path, t: &TensorData) -> Result<(), OracleError> {
    spvgraph_ir::npy::write_tensor(path, t, Dtypes::ReferenceModel).map_err(|e| failed(e.to_string()))
}

/// Reads a `.npy` file the model wrote for an output of type `elem`: `<f8`
/// data (precise mode) becomes [`ReferenceTensor::Precise`], anything else
/// must hold `elem` and becomes [`ReferenceTensor::Typed`].
pub fn read_npy(path: &Path, elem: ElemType) -> Result<ReferenceTensor, String> {
    let array = NpyArray::read(path).map_err(|e| e.to_string())?;
    decode_output(&array, elem).map_err(|e| e.at(path).to_string())
}

fn decode_output(array: &NpyArray, elem: ElemType) -> Result<ReferenceTensor, NpyError> {
    match array.to_f64() {
        Some(values) if elem.is_float() => Ok(ReferenceTensor::Precise { shape: array.shape().to_vec(), values }),
        _ => array.to_tensor(elem).map(ReferenceTensor::Typed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(t: &TensorData) -> TensorData {
        let dir = scratch().expect("scratch");
        let p = dir.path().join("t.npy");
        write_npy(&p, t).expect("write");
        match read_npy(&p, t.elem()).expect("read") {
            ReferenceTensor::Typed(back) => back,
            other => panic!("expected typed data, got {other:?}"),
        }
    }

    #[test]
    fn every_element_type_survives_the_model_dtypes() {
        for elem in ElemType::ALL {
            let bits: Vec<u64> = (0..6u64).map(|i| if elem == ElemType::Bool { i % 2 } else { i * 37 + 1 }).collect();
            let t = TensorData::from_bits(elem, &[2, 3], &bits).expect("tensor");
            let back = roundtrip(&t);
            assert_eq!(back.to_bits(), t.to_bits(), "{elem}");
            assert_eq!(back.shape(), &[2, 3]);
        }
        let one = TensorData::from_bits(ElemType::I32, &[4], &[1, 2, 3, 4]).expect("tensor");
        assert_eq!(roundtrip(&one).shape(), &[4]);
    }

    #[test]
    fn headers_are_checked() {
        let dir = scratch().expect("scratch");
        let p = dir.path().join("t.npy");
        let t = TensorData::from_bits(ElemType::I16, &[2], &[1, 2]).expect("tensor");
        write_npy(&p, &t).expect("write");
        let e = read_npy(&p, ElemType::Bf16).err().unwrap_or_default();
        assert!(e.contains("t.npy") && e.contains("<i2") && e.contains("bf16"), "{e}");
        let mut bytes = std::fs::read(&p).expect("read");
        bytes.pop();
        std::fs::write(&p, &bytes).expect("write");
        assert!(read_npy(&p, ElemType::I16).is_err(), "truncated data");
    }

    #[test]
    fn the_model_dtypes_are_written_and_fp64_is_read_as_precise() {
        let dir = scratch().expect("scratch");
        let p = dir.path().join("t.npy");
        for (elem, descr) in [(ElemType::Bf16, "'<V2'"), (ElemType::Fp8E4M3, "'<V1'"), (ElemType::Fp8E5M2, "'|u1'")] {
            write_npy(&p, &TensorData::zeros(elem, &[1])).expect("write");
            let bytes = std::fs::read(&p).expect("read");
            assert!(String::from_utf8_lossy(&bytes).contains(descr), "{elem}");
        }
        NpyArray::from_f64(&[2], &[0.5, -1.0]).and_then(|a| a.write(&p)).expect("write f64");
        let precise = read_npy(&p, ElemType::Fp16).expect("read");
        assert_eq!(precise, ReferenceTensor::Precise { shape: vec![2], values: vec![0.5, -1.0] });
        assert!(read_npy(&p, ElemType::I32).is_err(), "fp64 for an integer output");
    }

    #[test]
    fn missing_tools_make_the_oracle_unavailable() {
        let o = TosaReferenceModel {
            instance: Instance::release(NAME),
            tools: Err("not installed".into()),
            timeout: Duration::from_secs(1),
            level: None,
            version: None,
            times: Arc::default(),
        };
        match o.available() {
            Err(OracleError::Unavailable { oracle, reason }) => {
                assert_eq!(oracle, NAME);
                assert!(reason.contains("not installed"));
            }
            other => panic!("expected Unavailable, got {other:?}"),
        }
        let r = o.run_mlir("", &[], &[]);
        assert!(matches!(r, Err(OracleError::Unavailable { .. })));
    }

    /// Translation and `tosa-opt` count under `compile`; a graph `tosa-opt`
    /// rejects never reaches the model, so nothing counts under `run`.
    #[test]
    fn time_is_counted_by_phase() {
        let dir = scratch().expect("scratch");
        let opt = dir.path().join("tosa-opt");
        std::fs::write(&opt, "#!/bin/sh\necho \"'tosa.abs' op is wrong\" >&2\nexit 1\n").expect("write");
        std::fs::set_permissions(&opt, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
        let o = TosaReferenceModel::with_tools(opt, PathBuf::from("/nonexistent/tosa_reference_model"));
        assert_eq!(o.phase_times(), PhaseTimes::default());
        let words = spvgraph_ir::samples::elementwise_chain(2).encode_words().expect("encodes");
        let x = TensorData::zeros(ElemType::Fp32, &[1, 8, 8, 4]);
        let inputs = [x.clone(), x];
        let gc = Default::default();
        let request = ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &gc };
        match o.execute(&request) {
            Ok(ExecOutcome::Refused { kind: Refusal::Invalid, reason }) => {
                assert!(reason.contains("tosa-opt"), "{reason}")
            }
            other => panic!("expected tosa-opt's rejection, got {other:?}"),
        }
        let t = o.phase_times();
        assert!(t.compile > Duration::ZERO, "{t:?}");
        assert_eq!((t.start, t.run, t.readback), (Duration::ZERO, Duration::ZERO, Duration::ZERO));
        assert_eq!(o.clone().phase_times(), t, "clones share the figures");
    }

    #[test]
    fn flatbuffer_reading_never_panics() {
        let mut state = 0x1234_5678u32;
        for len in 0..200usize {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    (state >> 16) as u8
                })
                .collect();
            let _ = flatbuffer_io_names(&bytes);
        }
        assert!(flatbuffer_io_names(&[]).is_err());
    }

    #[test]
    fn a_hung_tool_is_an_abnormal_end() {
        let dir = scratch().expect("scratch");
        let mut cmd = Command::new("sleep");
        cmd.arg("10");
        let r = run_tool(cmd, dir.path(), Duration::from_millis(100)).expect("runs");
        assert_eq!(r.abnormal(), Some(Abnormal::Timeout));
    }
}

//! A consumer oracle through the Vulkan API itself (`vulkan`): one graph
//! entry point run on one device that exposes VK_ARM_tensors and
//! VK_ARM_data_graph, by a persistent worker process.
//!
//! The worker (`spvgraph vulkan-worker`, [`worker`]) holds the instance and
//! the device and runs graph after graph sent over a pipe ([`protocol`]);
//! what it does per graph is in [`device`]. A worker that crashes, hangs,
//! goes over the memory limit or loses its device answers nothing more: the
//! request gets an `Abnormal` outcome (the signal, the time-out, the memory)
//! or the device-lost refusal, and the next request starts a new worker.
//! Start-up (loader, instance, device) is paid once per worker, not per
//! graph, which is the difference from `emulation-layer` (scenario-runner,
//! one process per batch). A spare worker is kept started ahead of need
//! ([`Vulkan::with_spare`]), so a crash costs the next request no cold
//! start; each worker keeps the layers' glslang initialized
//! ([`Vulkan::with_glslang_kept`], `SPVGRAPH_KEEP_GLSLANG=0` turns it off)
//! and runs one tiny graph before it says it is ready. Pipeline creation
//! goes through a C++ frame ([`Vulkan::with_exceptions_caught`],
//! `SPVGRAPH_CATCH_EXCEPTIONS=0` turns it off): the layer lets C++ exceptions
//! out of `vkCreateDataGraphPipelinesARM`, which Rust cannot catch, and each
//! would otherwise cost a worker.
//!
//! Which device: by default the emulation layers `ci/setup-oracles`
//! installed, stacked on lavapipe. `--oracle-path vulkan=DIR` (or
//! `SPVGRAPH_ORACLE_PATH_VULKAN`) points at a driver instead: every Vulkan
//! driver manifest (a `.json` with an `ICD` object) under `DIR` (or `DIR`
//! itself, a manifest) is given to the loader, and the emulation layers are
//! used only when `DIR` holds them too (a driver that exposes the extensions
//! needs no layer). `SPVGRAPH_VULKAN_DEVICE` picks the device, by index in
//! the loader's enumeration or by part of its name; otherwise the first
//! device with both extensions and a `DATA_GRAPH` queue is used.
//! [`Oracle::version`] names the device, the driver and the layers.
//!
//! The worker's executable is explicit ([`Vulkan::with_worker`]); by
//! default [`WorkerCommand::discover`]: `$SPVGRAPH_VULKAN_WORKER`, the
//! running `spvgraph`, or the `spvgraph` cargo built next to a test.
//!
//! Requests are prepared as for `emulation-layer`
//! ([`crate::external::consumer::prepare`]: the same bindings, graph
//! constants and [`Workarounds`]), except that tensor arrays are bound, one
//! tensor per element at its `arrayElement`.
//!
//! Outcomes, kept apart: outputs; `Refused { Rejected }` with the stage and
//! the `VkResult` ("pipeline creation failed: …", "session memory could not
//! be bound: …", "the dispatch failed: …", "the device was lost: …"), with
//! what the driver or layer printed meanwhile; `Refused { Unsupported }`
//! for a tensor format the device does not have, or what cannot be bound;
//! `Abnormal` for a worker that died on a signal, hung or ran out of memory,
//! and [`Abnormal::Threw`] for an exception out of pipeline creation (the
//! worker goes on).

mod abi;
mod client;
pub mod device;
mod guard;
pub mod protocol;
pub mod worker;

pub use client::{WorkerCommand, WorkerStats, WORKER_VARIABLE};
pub use protocol::{DeviceReport, Fault, Stage};

use crate::attribution::Owner;
use crate::external::consumer::env::{self, Found, VulkanEnv};
use crate::external::consumer::glslang;
use crate::external::consumer::{prepare, Preparation, Prepared, RequestError, TensorArrays, Workarounds};
use crate::external::process::{self, Ended, Limits};
use crate::external::raw;
use crate::features::Feature;
use crate::oracle::{
    Abnormal, ExecOutcome, ExecRequest, Executor, Instance, KnownDiscrepancy, Oracle, OracleError, PhaseTimes, Refusal,
};
use crate::tools::{Tool, Tools};
use client::{Exchange, Launch, Pool, StartError};
use protocol::{ConstantHeader, FromWorker, RunHeader, RunTimes, ToWorker};
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The oracle's registry name.
pub const NAME: &str = crate::registry::VULKAN;

/// The variable that picks the device: an index in the loader's
/// enumeration, or part of the device's name.
pub const DEVICE_VARIABLE: &str = "SPVGRAPH_VULKAN_DEVICE";

/// The Vulkan oracle behind the [`Oracle`] interface.
pub struct Vulkan {
    instance: Instance,
    env: Result<VulkanEnv, Vec<String>>,
    worker: Result<WorkerCommand, String>,
    device: Option<String>,
    limits: Limits,
    workarounds: Workarounds,
    layer_package: Option<String>,
    keep_glslang: bool,
    catch_exceptions: bool,
    pool: Pool,
    ready: OnceLock<Result<DeviceReport, String>>,
}

impl std::fmt::Debug for Vulkan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vulkan")
            .field("env", &self.env)
            .field("worker", &self.worker)
            .field("device", &self.device)
            .field("limits", &self.limits)
            .field("workarounds", &self.workarounds)
            .field("keep_glslang", &self.keep_glslang)
            .field("catch_exceptions", &self.catch_exceptions)
            .finish_non_exhaustive()
    }
}

impl Vulkan {
    /// The default time limit per graph.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

    /// The provisioned layers on lavapipe, the worker of this installation.
    pub fn discover() -> Vulkan {
        Vulkan::from_config(&Tools::discover(), None)
    }

    /// The registry's constructor: the provisioned tools, or the driver
    /// (and layers) under `dir` (see the module documentation).
    pub fn from_config(tools: &Tools, dir: Option<&Path>) -> Vulkan {
        let env = match dir {
            None => env::provisioned(tools),
            Some(d) => from_dir(tools, d),
        };
        let layer_package = match &env {
            Ok(VulkanEnv { layers: Some(l), .. }) if !l.user => tools.package_version(Tool::VkLayerPath),
            Ok(VulkanEnv { layers: Some(l), .. }) => Some(format!(
                "ai-ml-emulation-layer-for-vulkan {} ({})",
                env::embedded_version(&l.libraries[0]).unwrap_or_else(|| "(version unknown)".into()),
                l.libraries[0].display()
            )),
            _ => None,
        };
        Vulkan {
            instance: Instance::of(NAME, tools),
            env,
            worker: WorkerCommand::discover(),
            device: std::env::var(DEVICE_VARIABLE).ok().filter(|s| !s.trim().is_empty()),
            limits: Limits { timeout: Self::DEFAULT_TIMEOUT, memory_bytes: Some(4 << 30) },
            workarounds: Workarounds::ALL,
            layer_package,
            keep_glslang: glslang::enabled_by_env(),
            catch_exceptions: guard::enabled_by_env(),
            pool: Pool::new(true),
            ready: OnceLock::new(),
        }
    }

    /// Runs workers with `command` instead of the discovered one.
    pub fn with_worker(mut self, command: WorkerCommand) -> Vulkan {
        self.worker = Ok(command);
        self
    }

    /// Picks the device (as `SPVGRAPH_VULKAN_DEVICE` does).
    pub fn with_device(mut self, device: Option<String>) -> Vulkan {
        self.device = device;
        self
    }

    /// Sets the time limit per graph and the resident-memory limit of a worker.
    pub fn with_limits(mut self, limits: Limits) -> Vulkan {
        self.limits = limits;
        self
    }

    /// Turns the documented work-arounds on (the default) or off: the same
    /// [`Workarounds`] as `emulation-layer`'s.
    pub fn with_workarounds(mut self, enabled: bool) -> Vulkan {
        self.workarounds = Workarounds::enabled(enabled);
        self
    }

    /// Keeps the layers' glslang initialized in each worker (the default,
    /// unless `SPVGRAPH_KEEP_GLSLANG=0`), or not: the layer then rebuilds
    /// glslang's built-in symbol tables for every shader it compiles, as it
    /// does on its own. The compiled shaders are the same either way.
    pub fn with_glslang_kept(mut self, keep: bool) -> Vulkan {
        self.keep_glslang = keep;
        self
    }

    /// Creates pipelines through a C++ frame that catches what the layer
    /// throws (the default, unless `SPVGRAPH_CATCH_EXCEPTIONS=0`): the
    /// worker reports [`Abnormal::Threw`] and serves the next graph. Off, the
    /// worker aborts on such a graph, as a C or Rust application does, and
    /// the next graph waits for a new worker.
    pub fn with_exceptions_caught(mut self, catch: bool) -> Vulkan {
        self.catch_exceptions = catch;
        self
    }

    /// Keeps a spare worker started ahead of need (the default), or not.
    pub fn with_spare(mut self, spare: bool) -> Vulkan {
        self.pool = Pool::new(spare);
        self
    }

    /// What starting a worker takes, or why none can start.
    fn launch(&self) -> Result<Launch, OracleError> {
        let env = self.env()?;
        let command =
            self.worker.as_ref().map_err(|e| OracleError::Unavailable { oracle: NAME.into(), reason: e.clone() })?;
        Ok(Launch {
            command: command.clone(),
            env: env.clone(),
            device: self.device.clone(),
            limits: self.limits,
            keep_glslang: self.keep_glslang,
            catch_exceptions: self.catch_exceptions,
        })
    }

    /// The environment workers get, or why there is none.
    pub fn env(&self) -> Result<&VulkanEnv, OracleError> {
        self.env
            .as_ref()
            .map_err(|missing| OracleError::Unavailable { oracle: NAME.into(), reason: missing.join("; ") })
    }

    /// The device the workers use: starts the first worker (kept for the
    /// first request), or says why none can start.
    pub fn device_report(&self) -> Result<DeviceReport, OracleError> {
        let unavailable = |reason: String| OracleError::Unavailable { oracle: NAME.into(), reason };
        let launch = self.launch()?;
        self.ready
            .get_or_init(|| match self.pool.take(&launch) {
                Ok(w) => {
                    let report = w.report.clone();
                    self.pool.give_back(w, &self.limits);
                    Ok(report)
                }
                Err(StartError::Unavailable(e) | StartError::Died(e)) => Err(e),
            })
            .clone()
            .map_err(unavailable)
    }

    /// What the workers cost so far, how many were replaced, and how many
    /// started ahead of need.
    pub fn stats(&self) -> WorkerStats {
        self.pool.stats()
    }

    /// Runs `request` with `fault` planted in the worker: it raises the fault
    /// where it would dispatch. For tests and measurements of what a
    /// crashing, hanging or device-losing driver does to the oracle.
    pub fn execute_with_fault(&self, request: &ExecRequest<'_>, fault: Fault) -> Result<ExecOutcome, OracleError> {
        self.run(request, Some(fault))
    }

    fn run(&self, request: &ExecRequest<'_>, fault: Option<Fault>) -> Result<ExecOutcome, OracleError> {
        self.device_report()?;
        let preparing = Instant::now();
        let prepared = prepare(request, self.workarounds, TensorArrays::Bound).map_err(|e| request_failed(&e));
        // Rewriting the module for the consumer is part of turning the
        // graph into something that runs.
        self.pool.count(|s| s.phases.compile += preparing.elapsed());
        let prepared = match prepared? {
            Preparation::Ready(p) => p,
            Preparation::Refused(kind, reason) => return Ok(ExecOutcome::Refused { kind, reason }),
        };
        let (header, blobs) = run_message(&prepared, request, fault);
        let refs: Vec<&[u8]> = blobs.iter().map(Vec::as_slice).collect();
        let launch = self.launch()?;
        let mut worker = match self.pool.take(&launch) {
            Ok(w) => w,
            Err(StartError::Unavailable(e)) => return Err(OracleError::Unavailable { oracle: NAME.into(), reason: e }),
            Err(StartError::Died(e)) => return Err(failed(format!("a new worker died before it was ready: {e}"))),
        };
        let start = Instant::now();
        let exchange = worker.exchange(&ToWorker::Run(header), &refs, &self.limits);
        let elapsed = start.elapsed();
        self.pool.count(|s| {
            s.graphs += 1;
            s.busy += elapsed;
            s.phases.add(&exchange_phases(&exchange, elapsed));
        });
        let notes = notes(&prepared);
        match exchange {
            Exchange::Reply { message: FromWorker::Outputs(_), blobs, .. } => {
                self.pool.give_back(worker, &self.limits);
                let decoding = Instant::now();
                let outputs = read_outputs(&prepared, &blobs).map(ExecOutcome::Outputs);
                self.pool.count(|s| s.phases.readback += decoding.elapsed());
                outputs
            }
            Exchange::Reply { message: FromWorker::Failed(f), stderr, .. } => {
                if f.stage == Stage::DeviceLost {
                    // The worker exits after a lost device; wait for it.
                    drop(worker);
                    self.pool.count(|s| s.lost += 1);
                } else {
                    self.pool.give_back(worker, &self.limits);
                }
                refusal(&f, &stderr, &notes)
            }
            Exchange::Reply { message, .. } => {
                self.pool.count(|s| s.lost += 1);
                Err(failed(format!("the worker answered a run with {message:?}")))
            }
            Exchange::Ended { how, stderr } => {
                self.pool.count(|s| s.lost += 1);
                let said = crash_detail(&stderr);
                Ok(match how {
                    Ended::Abnormal(how) => {
                        ExecOutcome::Abnormal { how, detail: format!("while running the graph{notes}: {said}") }
                    }
                    Ended::Exited(code) => ExecOutcome::Refused {
                        kind: Refusal::Rejected,
                        reason: format!("the worker exited with status {code} while running the graph{notes}: {said}"),
                    },
                })
            }
        }
    }
}

/// The environment for a user's directory: its driver manifests (else the
/// provisioned lavapipe, when `dir` holds layers) and its layers, if any.
fn from_dir(tools: &Tools, dir: &Path) -> Result<VulkanEnv, Vec<String>> {
    let found = Found::search(dir);
    let layers = env::user_layers(&found, tools, dir)?;
    env::loader().map_err(|e| vec![e])?;
    match (found.icds.is_empty(), layers) {
        (false, layers) => Ok(VulkanEnv { layers, icds: found.icds.clone(), user_icd: true }),
        (true, Some(layers)) => {
            let icd = env::provisioned_icd(tools).map_err(|e| vec![e])?;
            Ok(VulkanEnv { layers: Some(layers), icds: vec![icd], user_icd: false })
        }
        (true, None) => Err(vec![format!(
            "{} holds neither a Vulkan driver manifest (a .json file with an ICD object) nor the emulation layers",
            dir.display()
        )]),
    }
}

/// Where an exchange's `elapsed` time went: the worker's own account of a
/// run, the rest (the pipe, the messages) under `run`; a worker that died
/// or hung gives no account, so its time goes to `compile` when it was in
/// pipeline creation, else to `run`.
fn exchange_phases(exchange: &Exchange, elapsed: Duration) -> PhaseTimes {
    let from = |t: &RunTimes| PhaseTimes {
        start: Duration::ZERO,
        compile: Duration::from_micros(t.compile_us),
        run: Duration::from_micros(t.run_us) + elapsed.saturating_sub(t.total()),
        readback: Duration::from_micros(t.readback_us),
    };
    match exchange {
        Exchange::Reply { message: FromWorker::Outputs(t), .. } => from(t),
        Exchange::Reply { message: FromWorker::Failed(f), .. } => from(&f.times),
        Exchange::Reply { .. } => PhaseTimes { run: elapsed, ..PhaseTimes::default() },
        Exchange::Ended { stderr, .. } => {
            let call = stderr.lines().rev().find_map(|l| l.strip_prefix(device::MARK));
            if call == Some(device::PIPELINE_CALL) {
                PhaseTimes { compile: elapsed, ..PhaseTimes::default() }
            } else {
                PhaseTimes { run: elapsed, ..PhaseTimes::default() }
            }
        }
    }
}

/// What a worker that died printed, led by the Vulkan call it died in (and,
/// when the call let a C++ exception out, which the worker cannot catch,
/// that sentence: the documented discrepancy matches it).
fn crash_detail(stderr: &str) -> String {
    let call = stderr.lines().rev().find_map(|l| l.strip_prefix(device::MARK)).map(str::to_string);
    let said = process::tail_of(&without_marks(stderr), 12);
    let threw = said.contains(FOREIGN_EXCEPTION);
    match (call, threw) {
        (Some(c), true) => threw_in(&c, &said),
        (Some(c), false) => format!("in {c}: {said}"),
        (None, _) => said,
    }
}

/// How a detail says that a C++ exception left `call`, whether the worker
/// died of it or its guard caught it (the documented discrepancy matches
/// either), followed by what was said.
fn threw_in(call: &str, said: &str) -> String {
    format!("in {call}: {CPP_EXCEPTION} {call}; {said}")
}

/// `stderr` without the worker's call marks.
fn without_marks(stderr: &str) -> String {
    stderr.lines().filter(|l| !l.starts_with(device::MARK)).collect::<Vec<_>>().join("\n")
}

/// What the Rust runtime prints when a C++ exception reaches it.
const FOREIGN_EXCEPTION: &str = "Rust cannot catch foreign exceptions";

/// How a crash detail says that a C++ exception left a Vulkan command.
pub const CPP_EXCEPTION: &str = "a C++ exception escaped from the Vulkan command";

fn failed(reason: String) -> OracleError {
    OracleError::Failed { oracle: NAME.into(), reason }
}

fn request_failed(e: &RequestError) -> OracleError {
    failed(format!("the request does not fit its module: {}", e.0))
}

/// ` (work-arounds applied)`, or nothing.
fn notes(p: &Prepared) -> String {
    if p.applied.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = p.applied.iter().map(|w| w.to_string()).collect();
        format!(" ({})", list.join("; "))
    }
}

/// The header and blobs of a run.
fn run_message(p: &Prepared, request: &ExecRequest<'_>, fault: Option<Fault>) -> (RunHeader, Vec<Vec<u8>>) {
    let mut blobs = vec![protocol::words_to_bytes(&p.words)];
    blobs.extend(request.inputs.iter().map(raw::to_raw));
    let constants: Vec<ConstantHeader> = p
        .constants
        .iter()
        .map(|(&id, t)| {
            blobs.push(raw::to_raw(t));
            ConstantHeader { id, elem: t.elem(), shape: t.shape().to_vec() }
        })
        .collect();
    let header =
        RunHeader { entry: p.entry.clone(), inputs: p.inputs.clone(), outputs: p.outputs.clone(), constants, fault };
    (header, blobs)
}

fn read_outputs(p: &Prepared, blobs: &[Vec<u8>]) -> Result<Vec<spvgraph_ir::tensor::TensorData>, OracleError> {
    if blobs.len() != p.outputs.len() {
        return Err(failed(format!("{} outputs where {} were bound", blobs.len(), p.outputs.len())));
    }
    p.outputs
        .iter()
        .zip(blobs)
        .enumerate()
        .map(|(j, (s, b))| raw::from_raw(s.elem, &s.shape, b).map_err(|e| failed(format!("output {j}: {e}"))))
        .collect()
}

/// The outcome of a run that failed at a stage: the stage, the `VkResult`
/// and what the driver or layers printed meanwhile.
fn refusal(f: &protocol::Failure, stderr: &str, notes: &str) -> Result<ExecOutcome, OracleError> {
    let said = process::tail_of(&without_marks(stderr), 8);
    let said = if said.is_empty() { String::new() } else { format!("; it printed: {said}") };
    let reason = format!("{}{notes}: {}{said}", f.stage.describe(), f.message);
    let kind = match f.stage {
        Stage::Request => return Err(failed(reason)),
        // The same detail as a worker that died of it ([`crash_detail`]), so
        // that the documented discrepancy matches either way.
        Stage::Threw => {
            let call = device::PIPELINE_CALL;
            let detail = format!("while running the graph{notes}: {}", threw_in(call, &f.message));
            return Ok(ExecOutcome::Abnormal { how: Abnormal::Threw, detail });
        }
        Stage::Resources if f.result.as_deref() == Some("VK_ERROR_FORMAT_NOT_SUPPORTED") => Refusal::Unsupported,
        Stage::Resources
        | Stage::ShaderModule
        | Stage::Pipeline
        | Stage::Session
        | Stage::SessionMemory
        | Stage::Dispatch
        | Stage::DeviceLost => Refusal::Rejected,
    };
    Ok(ExecOutcome::Refused { kind, reason })
}

impl Oracle for Vulkan {
    fn instance(&self) -> &Instance {
        &self.instance
    }

    /// A graph costs its pipeline creation and little else: a larger share
    /// of the hunt than `emulation-layer`'s.
    fn default_sample(&self) -> f64 {
        0.2
    }

    fn available(&self) -> Result<(), OracleError> {
        self.instance.own(self.device_report().map(|_| ()))
    }

    /// The device, driver and layers, and whether the layers' glslang is
    /// kept initialized (`; glslang kept initialized in
    /// libVkLayer_Graph.so, libVkLayer_Tensor.so`).
    fn version(&self) -> Option<String> {
        let r = self.device_report().ok()?;
        let layers = if r.layers.is_empty() { "no layers".to_string() } else { r.layers.join("; ") };
        let package = self.layer_package.as_deref().map(|p| format!(" [{p}]")).unwrap_or_default();
        let kept: Vec<std::path::PathBuf> = r.glslang_kept.iter().map(std::path::PathBuf::from).collect();
        let mut glslang = if kept.is_empty() {
            String::new()
        } else {
            format!("; glslang kept initialized in {}", glslang::file_names(&kept))
        };
        if let Some(note) = &r.glslang_note {
            glslang.push_str(&format!("; glslang {note}"));
        }
        // A CPU device's code is generated for this machine's ISA.
        let host = if r.device_type == "CPU" { format!(" on {}", crate::host::cpu()) } else { String::new() };
        Some(format!(
            "device {}: {} ({}, Vulkan {}), driver {} (version {:#x}){host}, layers: {layers}{package}{glslang}",
            r.index, r.name, r.device_type, r.api_version, r.driver, r.driver_version
        ))
    }

    /// The emulation layer's documented discrepancies, when the layers are
    /// in use; none for a driver without them.
    fn known_discrepancies(&self) -> &'static [KnownDiscrepancy] {
        match &self.env {
            Ok(VulkanEnv { layers: Some(_), .. }) => &KNOWN_WITH_LAYERS,
            _ => &[],
        }
    }

    /// Worker start-ups (spares' included, on their own thread) under
    /// `start`; preparing the module and pipeline creation (shader module,
    /// layouts, `vkCreateDataGraphPipelinesARM`) under `compile`; tensors,
    /// session, descriptors, dispatch and wait, tear-down and the pipe under
    /// `run`; reading the outputs back and decoding them under `readback`.
    /// A worker that crashed or hung counts under `compile` when it was
    /// creating the pipeline, else under `run`.
    fn phase_times(&self) -> PhaseTimes {
        self.pool.stats().phases
    }

    /// None: it runs whatever driver and layers it finds, so a new finding
    /// of it is left for a person to attribute (a documented one names its
    /// owner in its row).
    /// With the emulation layers: the layers (and the SPIRV-Tools passes
    /// they run), on the provisioned lavapipe (Mesa) unless the user gave a
    /// driver; a user's driver alone names no project spvgraph knows.
    fn components(&self) -> &'static [Owner] {
        match &self.env {
            Ok(VulkanEnv { layers: Some(_), user_icd: false, .. }) => {
                &[Owner::EmulationLayer, Owner::Mesa, Owner::SpirvTools]
            }
            Ok(VulkanEnv { layers: Some(_), user_icd: true, .. }) => &[Owner::EmulationLayer, Owner::SpirvTools],
            Ok(VulkanEnv { layers: None, .. }) | Err(_) => &[],
        }
    }

    crate::capabilities! { validator: no, executor: yes, producer: no, reader: no, referee: no }
}

impl Executor for Vulkan {
    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        self.instance.own(self.run(request, None))
    }
}

/// What only the API path shows of the emulation layer (0.11.0), each with
/// a minimal module under `corpus/findings/` (`oracle/tests/it/vulkan_findings.rs`).
const API_KNOWN: &[KnownDiscrepancy] = &[
    KnownDiscrepancy {
        message: Some(CPP_EXCEPTION),
        ..KnownDiscrepancy::open(
            "crash",
            Owner::EmulationLayer,
            "the Graph layer refuses a graph at pipeline creation by throwing a C++ exception out of \
             vkCreateDataGraphPipelinesARM instead of returning a VkResult: scenario-runner (C++) catches it, a C or \
             Rust application aborts",
            "corpus/findings/emulation-layer-exception-through-vulkan-api.spv",
        )
    },
    KnownDiscrepancy {
        features: &[Feature::TensorArrayElements],
        ..KnownDiscrepancy::open(
            "crash",
            Owner::EmulationLayer,
            "a graph that reads two elements of a tensor-array input crashes the Graph layer's SPIR-V pass (SIGSEGV \
             in GraphExtInstContext::handleInputsAndOutputs at pipeline creation); scenario-runner cannot bind \
             tensor arrays, so only the API path shows it",
            "corpus/findings/emulation-layer-tensor-array-elements-sigsegv.spv",
        )
    },
];

/// The layer's own discrepancies followed by those only the API shows.
static KNOWN_WITH_LAYERS: [KnownDiscrepancy; crate::external::emulation_layer::LAYER_KNOWN.len() + API_KNOWN.len()] =
    join(crate::external::emulation_layer::LAYER_KNOWN, API_KNOWN);

/// `a` then `b`, as one array of `N = a.len() + b.len()` rows, at compile time.
const fn join<const N: usize>(a: &[KnownDiscrepancy], b: &[KnownDiscrepancy]) -> [KnownDiscrepancy; N] {
    let mut out = [API_KNOWN[0]; N];
    let mut i = 0;
    while i < a.len() {
        out[i] = a[i];
        i += 1;
    }
    let mut j = 0;
    while j < b.len() {
        out[a.len() + j] = b[j];
        j += 1;
    }
    out
}

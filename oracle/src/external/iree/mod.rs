//! IREE (a second TOSA compiler, on the CPU) as an executing oracle.
//!
//! A graph goes: SPIR-V module → TOSA MLIR ([`spvgraph_ir::mlir::module_to_mlir`],
//! which prints every TOSA operation in MLIR's generic form, the only one
//! IREE's parser reads whatever the TOSA dialect's custom syntax of the
//! day) → `iree-compile` for `llvm-cpu` → `iree-run-module` on the
//! `local-sync` device, with every input and output as raw binary of an
//! explicit type (`--input=2x3xbf16=@in0.bin`; IREE's `.npy` reader has no
//! bf16). Text with an operation in custom syntax (none today) would go
//! through `tosa-opt --mlir-print-op-generic` first ([`needs_generic_pass`]).
//!
//! Conventions of IREE 3.13, found by running it:
//!
//! * The exported function is the MLIR function, named after the entry point.
//! * i48 tensors are i64 at the function boundary (the raw form is 8 bytes
//!   per element either way); bool is one byte per element.
//! * Compilation dominates: 0.16 to 1.9 s per small graph, of which about
//!   0.3 s is a fixed cost per `iree-compile` run; a run of
//!   `iree-run-module` takes about 3 ms. So [`crate::oracle::Executor::execute_batch`]
//!   compiles the graphs of a batch as the functions of one module
//!   ([`batch`]), and compiled modules are cached by the MLIR's hash for
//!   the life of the oracle, and compile failures with them.
//! * It compiles for `--iree-llvmcpu-target-cpu=generic` by default, so
//!   that verdicts do not depend on the machine; `iree@host` (in the
//!   registry) compiles for the host CPU ([`TargetCpu`]).
//! * What IREE cannot lower is [`Refusal::Unsupported`]; other compiler or
//!   runtime errors on a valid graph are [`Refusal::Rejected`] (see
//!   [`classify`]); crashes, time-outs and running out of memory are
//!   [`ExecOutcome::Abnormal`].

pub mod barrier;
pub mod batch;
pub mod classify;
pub mod target;

pub use target::TargetCpu;

use super::process::{self, Limits, ProcessRun, ScratchDir};
use super::raw;
use crate::attribution::Owner;
use crate::exec::{self, Port};
use crate::features::Feature;
use crate::oracle::{Abnormal, ExecOutcome, ExecRequest, Executor, Instance, KnownDiscrepancy, Oracle, OracleError};
use crate::oracle::{PhaseTimes, Refusal, Standalone};
use crate::tools::{Tool, Tools};
use batch::BatchModule;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const NAME: &str = crate::registry::IREE;

/// The executables the adapter runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IreeTools {
    /// `tosa-opt` (tosa-tools): the generic form of text that is not in
    /// it, and the TOSA verifier's word on a graph IREE refused.
    pub tosa_opt: PathBuf,
    /// `iree-compile`.
    pub compile: PathBuf,
    /// `iree-run-module`.
    pub run_module: PathBuf,
}

/// A compiled module file in the cache's directory, shared by the functions
/// compiled into it; removed when the last of them leaves the cache and no
/// run holds it any more.
#[derive(Debug)]
struct KeptModule {
    path: PathBuf,
}

impl Drop for KeptModule {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A compilation's result, as cached.
#[derive(Clone, Debug)]
enum Compiled {
    /// The graph is function `function` of `module`.
    Module {
        module: Arc<KeptModule>,
        function: String,
    },
    Refused(Refusal, String),
    Abnormal(Abnormal, String),
}

/// Compiled modules by MLIR hash, in a directory that lives as long as the oracle.
#[derive(Debug, Default)]
struct Cache {
    dir: Option<ScratchDir>,
    entries: HashMap<u64, Compiled>,
    order: VecDeque<u64>,
}

/// How many compiled graphs the cache keeps.
const CACHE_ENTRIES: usize = 256;

/// The most graphs compiled as one module: a larger batch is compiled in
/// modules of this many, so that one module's time and memory stay within
/// the limits of one tool run (48 small graphs take about 20 s).
pub const MAX_MODULE_FUNCTIONS: usize = 48;

/// IREE behind the [`Oracle`] interface.
#[derive(Clone, Debug)]
pub struct Iree {
    instance: Instance,
    tools: Result<IreeTools, String>,
    limits: Limits,
    target: TargetCpu,
    batching: bool,
    /// Cases per hunt batch ([`Oracle::preferred_batch`]).
    preferred: usize,
    /// The recorded package versions, or what `iree-compile` reports (asked once, when first needed).
    version: std::sync::OnceLock<Option<String>>,
    cache: Arc<Mutex<Cache>>,
    times: Arc<Mutex<PhaseTimes>>,
}

impl Default for Iree {
    fn default() -> Self {
        Iree::discover()
    }
}

/// A request ready to compile.
struct Prepared {
    /// The MLIR's hash: the cache key.
    key: u64,
    /// Its TOSA MLIR, as printed.
    mlir: String,
    /// The entry point: the function of a module compiled from it alone.
    entry: String,
    /// Its outputs, to read back.
    outputs: Vec<Port>,
}

/// What compiling several graphs as one module gave.
enum Together {
    /// It compiled.
    Module(Arc<KeptModule>),
    /// It did not, and the diagnostics name these functions.
    Named(Vec<usize>),
    /// It did not, and the diagnostics name no function.
    Unattributed,
    /// `iree-compile` crashed, timed out or ran out of memory.
    Abnormal,
}

impl Iree {
    /// The default time limit of one tool run.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

    /// The tools `ci/setup-oracles` installed ([`Tools::discover`]).
    pub fn discover() -> Iree {
        Iree::from_config(&Tools::discover(), None)
    }

    /// The registry's constructor. Without `dir`, the provisioned
    /// `iree-compile` and `iree-run-module` (iree-base-compiler and
    /// iree-base-runtime). With `dir` (`--oracle-path iree=DIR`: a user's
    /// IREE build or another release), both from `DIR`, `DIR/bin` or
    /// `DIR/tools` (an IREE build tree). `tosa-opt` is always the
    /// provisioned one.
    pub fn from_config(tools: &Tools, dir: Option<&Path>) -> Iree {
        let provisioned = |t: Tool| tools.get(t).map(Path::to_path_buf).map_err(|e| e.to_string());
        let found = match dir {
            None => (|| {
                Ok(IreeTools {
                    tosa_opt: provisioned(Tool::TosaOpt)?,
                    compile: provisioned(Tool::IreeCompile)?,
                    run_module: provisioned(Tool::IreeRunModule)?,
                })
            })()
            .map_err(|e: String| format!("{e} (iree-base-compiler/iree-base-runtime: run ci/setup-oracles)")),
            Some(dir) => {
                let find = |name: &str| {
                    [dir.join(name), dir.join("bin").join(name), dir.join("tools").join(name)]
                        .into_iter()
                        .find(|p| p.is_file())
                        .ok_or_else(|| format!("{}: no {name} there (nor in bin/ or tools/)", dir.display()))
                };
                (|| {
                    Ok(IreeTools {
                        tosa_opt: provisioned(Tool::TosaOpt)?,
                        compile: find("iree-compile")?,
                        run_module: find("iree-run-module")?,
                    })
                })()
            }
        };
        let version = std::sync::OnceLock::new();
        if let (None, Some(c), Some(r)) =
            (dir, tools.package_version(Tool::IreeCompile), tools.package_version(Tool::IreeRunModule))
        {
            let _ = version.set(Some(format!("{c}, {r}")));
        }
        let iree = Iree { version, ..Iree::new(Instance::of(NAME, tools), found) };
        match batch_from_env() {
            Ok(None) => iree,
            Ok(Some(BatchSetting::Off)) => iree.with_batching(false).with_preferred_batch(1),
            Ok(Some(BatchSetting::Cases(n))) => iree.with_preferred_batch(n),
            // The oracle cannot run as asked; `available` says why.
            Err(reason) => Iree { tools: Err(reason), ..iree },
        }
    }

    /// Uses these executables.
    pub fn with_tools(tools: IreeTools) -> Iree {
        Iree::new(Instance::release(NAME), Ok(tools))
    }

    fn new(instance: Instance, tools: Result<IreeTools, String>) -> Iree {
        Iree {
            instance,
            tools,
            limits: Limits { timeout: Self::DEFAULT_TIMEOUT, ..Limits::default() },
            target: TargetCpu::default(),
            batching: true,
            preferred: PREFERRED_BATCH,
            version: std::sync::OnceLock::new(),
            cache: Arc::default(),
            times: Arc::default(),
        }
    }

    /// Sets the time and memory limits of each tool run.
    pub fn with_limits(mut self, limits: Limits) -> Iree {
        self.limits = limits;
        self
    }

    /// Compiles for `target` ([`TargetCpu::Generic`] by default). The
    /// oracle starts with an empty cache: code compiled for one target is
    /// not the other's.
    pub fn with_target_cpu(mut self, target: TargetCpu) -> Iree {
        self.target = target;
        self.cache = Arc::default();
        self
    }

    /// Asks the hunt for batches of `cases` cases ([`Oracle::preferred_batch`];
    /// [`PREFERRED_BATCH`] by default).
    pub fn with_preferred_batch(mut self, cases: usize) -> Iree {
        self.preferred = cases.max(1);
        self
    }

    /// Whether [`crate::oracle::Executor::execute_batch`] compiles a batch's graphs as one
    /// module (the default) or each graph by itself (what
    /// [`crate::oracle::Executor::execute`] does): the answers are the same, only the time
    /// differs.
    pub fn with_batching(mut self, batching: bool) -> Iree {
        self.batching = batching;
        self
    }

    /// The CPU it compiles for.
    pub fn target_cpu(&self) -> TargetCpu {
        self.target
    }

    /// The executables in use.
    pub fn tools(&self) -> Result<&IreeTools, OracleError> {
        self.tools.as_ref().map_err(|reason| OracleError::Unavailable { oracle: NAME.into(), reason: reason.clone() })
    }

    /// The `iree-compile` flags of a TOSA graph for this oracle's CPU target.
    pub fn compile_flags(&self) -> Vec<String> {
        COMPILE_FLAGS.iter().map(|f| f.to_string()).chain([self.target.flag()]).collect()
    }

    /// The first line of `iree-compile --version` (`IREE compiler version 3.13.0rc20261016 @ 89ece87b...`).
    fn reported_version(&self) -> Option<String> {
        let tools = self.tools().ok()?;
        let dir = ScratchDir::new("iree-version").ok()?;
        let mut cmd = Command::new(&tools.compile);
        cmd.arg("--version");
        let run =
            process::run(cmd, dir.path(), &Limits { timeout: Duration::from_secs(20), memory_bytes: None }).ok()?;
        let text = run.stdout_text();
        let line = text.lines().map(str::trim).find(|l| l.starts_with("IREE compiler version"))?;
        Some(line.to_string())
    }

    fn run(&self, cmd: Command, dir: &Path) -> Result<ProcessRun, OracleError> {
        process::run(cmd, dir, &self.limits).map_err(|e| failed(e.to_string()))
    }

    fn count(&self, add: impl FnOnce(&mut PhaseTimes)) {
        // A panic while holding the lock leaves usable figures: each update is one addition.
        add(&mut self.times.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        // A panic while holding the lock leaves a usable cache: entries are
        // only ever inserted whole.
        self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn cached(&self, key: u64) -> Option<Compiled> {
        self.lock_cache().entries.get(&key).cloned()
    }

    fn remember(&self, key: u64, compiled: Compiled) {
        let mut cache = self.lock_cache();
        if cache.entries.insert(key, compiled).is_none() {
            cache.order.push_back(key);
        }
        while cache.order.len() > CACHE_ENTRIES {
            if let Some(old) = cache.order.pop_front() {
                // The module file goes with the last entry (or run) holding it.
                cache.entries.remove(&old);
            }
        }
    }

    /// Moves a compiled module into the cache's directory as `name`.
    fn keep(&self, vmfb: &Path, name: &str) -> Result<Arc<KeptModule>, OracleError> {
        let dir = {
            let mut cache = self.lock_cache();
            if cache.dir.is_none() {
                cache.dir = Some(ScratchDir::new("iree-cache").map_err(|e| failed(e.to_string()))?);
            }
            cache.dir.as_ref().map(|d| d.path().to_path_buf()).unwrap_or_default()
        };
        let kept = dir.join(name);
        std::fs::rename(vmfb, &kept)
            .or_else(|_| std::fs::copy(vmfb, &kept).map(|_| ()))
            .map_err(|e| failed(format!("{}: {e}", kept.display())))?;
        Ok(Arc::new(KeptModule { path: kept }))
    }

    /// Checks a request against its module and prints its TOSA MLIR; or the
    /// answer without compiling (the module is invalid or has no TOSA form).
    fn prepare(&self, request: &ExecRequest<'_>) -> Result<Result<Prepared, ExecOutcome>, OracleError> {
        let invalid = |reason: String| Ok(Err(ExecOutcome::Refused { kind: Refusal::Invalid, reason }));
        let module = match Module::decode_words(request.module) {
            Ok(m) => m,
            Err(e) => return invalid(format!("the module does not decode: {e}")),
        };
        let iface = match exec::interface(&module, request.entry_point) {
            Ok(i) => i,
            Err(e) => return invalid(e.to_string()),
        };
        let Some(entry) = iface.entry_point.clone() else {
            return invalid("the module has no OpGraphEntryPointARM".into());
        };
        if request.inputs.len() != iface.inputs.len() {
            return Err(failed(format!(
                "entry point {entry:?} takes {} inputs, the request has {}",
                iface.inputs.len(),
                request.inputs.len()
            )));
        }
        for (i, (t, port)) in request.inputs.iter().zip(&iface.inputs).enumerate() {
            if t.elem() != port.elem || t.shape() != port.shape {
                return Err(failed(format!(
                    "input {i} is {} {:?}, the graph takes {}",
                    t.elem(),
                    t.shape(),
                    port.describe("input")
                )));
            }
        }
        let mlir =
            match crate::external::translate::tosa_mlir_or_unsupported(NAME, &module, &entry, request.graph_constants)?
            {
                Ok(mlir) => mlir,
                Err(refused) => return Ok(Err(refused)),
            };
        let key = {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            mlir.hash(&mut h);
            h.finish()
        };
        Ok(Ok(Prepared { key, mlir, entry, outputs: iface.outputs }))
    }

    /// Every request's answer, in order: the graphs compiled (together when
    /// batching, see [`Iree::compile_all`]), then each run.
    fn answer(&self, requests: &[ExecRequest<'_>]) -> Vec<Result<ExecOutcome, OracleError>> {
        if let Err(e) = self.tools() {
            return requests.iter().map(|_| Err(e.clone())).collect();
        }
        let start = Instant::now();
        let prepared: Vec<_> = requests.iter().map(|r| self.prepare(r)).collect();
        let mut graphs: Vec<(u64, &str, &str)> = Vec::new();
        for p in prepared.iter().flatten().flatten() {
            if !graphs.iter().any(|g| g.0 == p.key) {
                graphs.push((p.key, &p.mlir, &p.entry));
            }
        }
        let compiled = self.compile_all(&graphs);
        self.count(|t| t.compile += start.elapsed());
        requests
            .iter()
            .zip(prepared)
            .map(|(request, prepared)| {
                let p = match prepared? {
                    Ok(p) => p,
                    Err(answer) => return Ok(answer),
                };
                match compiled.get(&p.key) {
                    Some(Ok(Compiled::Module { module, function })) => {
                        self.run_module(&module.path, function, request.inputs, &p.outputs)
                    }
                    Some(Ok(Compiled::Refused(kind, reason))) => {
                        Ok(ExecOutcome::Refused { kind: *kind, reason: reason.clone() })
                    }
                    Some(Ok(Compiled::Abnormal(how, detail))) => {
                        Ok(ExecOutcome::Abnormal { how: *how, detail: detail.clone() })
                    }
                    Some(Err(e)) => Err(e.clone()),
                    None => Err(failed(format!("entry point {:?} was not compiled", p.entry))),
                }
            })
            .collect()
    }

    /// Compiles `graphs` (key, MLIR, entry point; distinct keys): what the
    /// cache holds is taken from it; with batching, the rest as modules of
    /// up to [`MAX_MODULE_FUNCTIONS`] functions ([`Iree::compile_group`]),
    /// else each by itself ([`Iree::compile`]).
    fn compile_all(&self, graphs: &[(u64, &str, &str)]) -> HashMap<u64, Result<Compiled, OracleError>> {
        let mut out = HashMap::new();
        let mut todo = Vec::new();
        for &(key, mlir, entry) in graphs {
            match self.cached(key) {
                Some(hit) => {
                    out.insert(key, Ok(hit));
                }
                None => todo.push((key, mlir, entry)),
            }
        }
        if self.batching {
            for chunk in todo.chunks(MAX_MODULE_FUNCTIONS) {
                self.compile_group(chunk, &mut out);
            }
        } else {
            for (key, mlir, entry) in todo {
                out.insert(key, self.compile(key, mlir, entry));
            }
        }
        out
    }

    /// Compiles `group` as one module. When it does not compile, the
    /// functions the diagnostics name are compiled alone (by the path
    /// [`crate::oracle::Executor::execute`] takes, so each gets its own classification,
    /// cache entry and message) and the rest together again; when they
    /// name none, each half is compiled as a group; when `iree-compile`
    /// crashes, times out or runs out of memory, each graph alone (the
    /// batch's end is no graph's answer).
    fn compile_group(&self, group: &[(u64, &str, &str)], out: &mut HashMap<u64, Result<Compiled, OracleError>>) {
        let alone = |out: &mut HashMap<_, _>, g: &[(u64, &str, &str)]| {
            for &(key, mlir, entry) in g {
                out.insert(key, self.compile(key, mlir, entry));
            }
        };
        if group.len() < 2 {
            return alone(out, group);
        }
        match self.compile_together(group) {
            Err(e) => {
                for &(key, ..) in group {
                    out.insert(key, Err(e.clone()));
                }
            }
            Ok(Together::Module(module)) => {
                for (k, &(key, ..)) in group.iter().enumerate() {
                    let compiled = Compiled::Module { module: module.clone(), function: batch::function_name(k) };
                    self.remember(key, compiled.clone());
                    out.insert(key, Ok(compiled));
                }
            }
            Ok(Together::Named(named)) => {
                let (failing, rest): (Vec<_>, Vec<_>) = group.iter().enumerate().partition(|(k, _)| named.contains(k));
                let failing: Vec<_> = failing.into_iter().map(|(_, g)| *g).collect();
                let rest: Vec<_> = rest.into_iter().map(|(_, g)| *g).collect();
                alone(out, &failing);
                self.compile_group(&rest, out);
            }
            Ok(Together::Unattributed) => {
                let (a, b) = group.split_at(group.len() / 2);
                self.compile_group(a, out);
                self.compile_group(b, out);
            }
            Ok(Together::Abnormal) => alone(out, group),
        }
    }

    /// One `iree-compile` run on the graphs of `group` as the functions of
    /// one module ([`BatchModule`]); graphs that need `tosa-opt` first, that
    /// [`compiles_alone`], or that have no function to rename, are named as
    /// failing without a run (they go alone).
    fn compile_together(&self, group: &[(u64, &str, &str)]) -> Result<Together, OracleError> {
        let apart: Vec<usize> =
            (0..group.len()).filter(|&k| needs_generic_pass(group[k].1) || compiles_alone(group[k].1)).collect();
        if !apart.is_empty() {
            return Ok(Together::Named(apart));
        }
        let texts: Vec<String> = group
            .iter()
            .map(|(_, mlir, _)| barrier::with_fp8_barriers(mlir).unwrap_or_else(|| mlir.to_string()))
            .collect();
        let Some(module) = BatchModule::new(&texts) else {
            return Ok(Together::Named((0..group.len()).collect()));
        };
        let tools = self.tools()?;
        let work = ScratchDir::new("iree-batch").map_err(|e| failed(e.to_string()))?;
        write(&work.join("batch.mlir"), module.text.as_bytes())?;
        let mut cmd = Command::new(&tools.compile);
        cmd.args(self.compile_flags());
        // Harness workers run in parallel already.
        cmd.args(["--mlir-disable-threading", "batch.mlir", "-o", "batch.vmfb"]);
        let run = self.run(cmd, work.path())?;
        if run.abnormal().is_some() {
            return Ok(Together::Abnormal);
        }
        if !run.success() {
            let named: Vec<usize> = module.named(&run.stderr_text(), "batch.mlir").into_iter().collect();
            return Ok(if named.is_empty() { Together::Unattributed } else { Together::Named(named) });
        }
        static MODULES: AtomicU64 = AtomicU64::new(0);
        let n = MODULES.fetch_add(1, Ordering::Relaxed);
        self.keep(&work.join("batch.vmfb"), &format!("batch-{n}.vmfb")).map(Together::Module)
    }

    /// Compiles one graph's TOSA MLIR by itself for `llvm-cpu` (its function
    /// is `entry`), or returns the cached result of an earlier compilation
    /// of the same text.
    fn compile(&self, key: u64, mlir: &str, entry: &str) -> Result<Compiled, OracleError> {
        if let Some(hit) = self.cached(key) {
            return Ok(hit);
        }
        let work = ScratchDir::new("iree").map_err(|e| failed(e.to_string()))?;
        let compiled = match self.compile_in(work.path(), mlir)? {
            Ok(vmfb) => {
                let module = self.keep(&vmfb, &format!("{key:016x}.vmfb"))?;
                Compiled::Module { module, function: entry.to_string() }
            }
            Err(not) => not,
        };
        self.remember(key, compiled.clone());
        Ok(compiled)
    }

    /// The text IREE is given for a graph's printed MLIR: the generic form
    /// (the printed text itself, unless [`needs_generic_pass`]), with the
    /// fp8 barriers ([`barrier`]); or why there is none (`tosa-opt` rejected
    /// or crashed on text that needed it). `dir` holds `tosa-opt`'s files.
    fn compilable(&self, dir: &Path, mlir: &str) -> Result<Result<String, Compiled>, OracleError> {
        let generic = if needs_generic_pass(mlir) {
            match self.generic_form(dir, mlir)? {
                Ok(g) => g,
                Err(not) => return Ok(Err(not)),
            }
        } else {
            mlir.to_string()
        };
        Ok(Ok(barrier::with_fp8_barriers(&generic).unwrap_or(generic)))
    }

    /// Writes `printed.mlir` and has `tosa-opt` print its generic form; the
    /// generic text, or why there is none.
    fn generic_form(&self, dir: &Path, mlir: &str) -> Result<Result<String, Compiled>, OracleError> {
        let tools = self.tools()?;
        write(&dir.join("printed.mlir"), mlir.as_bytes())?;
        let mut cmd = Command::new(&tools.tosa_opt);
        cmd.args(["printed.mlir", "--mlir-print-op-generic", "-o", "printed.generic.mlir"]);
        let run = self.run(cmd, dir)?;
        if let Some(how) = run.abnormal() {
            return Ok(Err(Compiled::Abnormal(how, format!("tosa-opt: {}", run.tail(12)))));
        }
        if !run.success() {
            if let Some(rejected) = verifier_rejection(&run) {
                return Ok(Err(rejected));
            }
            return Err(failed(format!(
                "tosa-opt --mlir-print-op-generic failed ({}): {}",
                run.status_text(),
                run.tail(12)
            )));
        }
        std::fs::read_to_string(dir.join("printed.generic.mlir"))
            .map(Ok)
            .map_err(|e| failed(format!("tosa-opt wrote no generic form: {e}")))
    }

    /// `tosa-opt`'s TOSA verifier on a graph IREE refused: its rejection,
    /// when it rejects the graph (the graph is then invalid by MLIR's TOSA
    /// dialect, whatever IREE made of it). It runs only after a refusal:
    /// on graphs IREE compiles, it would cost a process per graph for
    /// nothing. Any other failure of `tosa-opt` leaves IREE's answer.
    fn verifier_refusal(&self, dir: &Path, mlir: &str) -> Result<Option<Compiled>, OracleError> {
        let tools = self.tools()?;
        write(&dir.join("printed.mlir"), mlir.as_bytes())?;
        let mut cmd = Command::new(&tools.tosa_opt);
        cmd.args(["printed.mlir", "-o", "/dev/null"]);
        let run = self.run(cmd, dir)?;
        Ok(if run.abnormal().is_none() && !run.success() { verifier_rejection(&run) } else { None })
    }

    /// Compiles one graph in `dir` (as `graph.mlir`): the module file, or
    /// the refusal or abnormal end.
    fn compile_in(&self, dir: &Path, mlir: &str) -> Result<Result<PathBuf, Compiled>, OracleError> {
        let tools = self.tools()?;
        let text = match self.compilable(dir, mlir)? {
            Ok(t) => t,
            Err(not) => return Ok(Err(not)),
        };
        write(&dir.join("graph.mlir"), text.as_bytes())?;
        let mut cmd = Command::new(&tools.compile);
        cmd.args(self.compile_flags());
        // Harness workers run in parallel already.
        cmd.args(["--mlir-disable-threading", "graph.mlir", "-o", "graph.vmfb"]);
        let run = self.run(cmd, dir)?;
        if let Some(how) = run.abnormal() {
            return Ok(Err(Compiled::Abnormal(how, format!("iree-compile: {}", run.tail(12)))));
        }
        if !run.success() {
            if !needs_generic_pass(mlir) {
                if let Some(rejected) = self.verifier_refusal(dir, mlir)? {
                    return Ok(Err(rejected));
                }
            }
            let (kind, reason) = classify::classify(&text, &run.stderr_text());
            return Ok(Err(Compiled::Refused(kind, format!("iree-compile: {reason}"))));
        }
        Ok(Ok(dir.join("graph.vmfb")))
    }

    /// Runs a compiled module's `function` on `inputs`.
    fn run_module(
        &self,
        vmfb: &Path,
        function: &str,
        inputs: &[spvgraph_ir::tensor::TensorData],
        outputs: &[Port],
    ) -> Result<ExecOutcome, OracleError> {
        let tools = self.tools()?;
        let start = Instant::now();
        let dir = ScratchDir::new("iree-run").map_err(|e| failed(e.to_string()))?;
        let mut cmd = Command::new(&tools.run_module);
        cmd.arg(format!("--module={}", vmfb.display()))
            .arg("--device=local-sync")
            .arg(format!("--function={function}"));
        for (i, t) in inputs.iter().enumerate() {
            let file = format!("in{i}.bin");
            write(&dir.join(&file), &raw::to_raw(t))?;
            cmd.arg(format!("--input={}=@{file}", iree_type(t.elem(), t.shape())));
        }
        for j in 0..outputs.len() {
            cmd.arg(format!("--output=@out{j}.bin"));
        }
        let run = self.run(cmd, dir.path());
        self.count(|t| t.run += start.elapsed());
        let run = run?;
        if let Some(how) = run.abnormal() {
            return Ok(ExecOutcome::Abnormal { how, detail: format!("iree-run-module: {}", run.tail(12)) });
        }
        if !run.success() {
            let reason = format!("iree-run-module: {}: {}", run.status_text(), run.tail(12));
            return Ok(ExecOutcome::Refused { kind: Refusal::Rejected, reason });
        }
        let start = Instant::now();
        let result = read_outputs(dir.path(), outputs);
        self.count(|t| t.readback += start.elapsed());
        result.map(ExecOutcome::Outputs)
    }
}

/// The outputs `iree-run-module` wrote into `dir`, decoded.
fn read_outputs(dir: &Path, outputs: &[Port]) -> Result<Vec<spvgraph_ir::tensor::TensorData>, OracleError> {
    let mut result = Vec::with_capacity(outputs.len());
    for (j, port) in outputs.iter().enumerate() {
        let path = dir.join(format!("out{j}.bin"));
        let bytes = std::fs::read(&path).map_err(|e| failed(format!("iree-run-module wrote no output {j}: {e}")))?;
        let t = raw::from_raw(port.elem, &port.shape, &bytes)
            .map_err(|e| failed(format!("output {j} of iree-run-module: {e}")))?;
        result.push(t);
    }
    Ok(result)
}

/// `tosa-opt`'s refusal of a graph, when its failure is MLIR's TOSA verifier
/// rejecting an operation ("'tosa.x' op ...").
fn verifier_rejection(run: &ProcessRun) -> Option<Compiled> {
    let text = run.tail(12);
    text.contains("' op ").then(|| Compiled::Refused(Refusal::Invalid, format!("tosa-opt rejected the graph: {text}")))
}

/// Whether a graph is compiled by itself even in a batch, because IREE
/// 3.13 is known to refuse it, in a way that costs a batch module dear:
///
/// * fp8 and fp16 values in one graph (a CAST between them, an fp8
///   convolution's fp16 result or accumulator): IREE cannot convert fp8 to
///   or from fp16 on llvm-cpu ([`barrier`]), and the failure comes late, in
///   code generation, where a module that fails has lost most of its work
///   (measured in one hunt batch: a 20-graph module failed after 28 s, the
///   19 left after 31 s, and the 18 left then compiled in 35 s);
/// * MAX_POOL2D on fp8, which IREE cannot lower, and RESCALE with
///   INEXACT_ROUND, which its TOSA validation refuses: both fail at once, so
///   in a module they cost a compiler run for nothing.
///
/// Other fp8 graphs (fp8 to and from fp32 converts) compile, and stay in
/// the module. The answer is the same either way; only the time differs.
pub fn compiles_alone(mlir: &str) -> bool {
    let fp8 = mlir.contains("f8E4M3FN") || mlir.contains("f8E5M2");
    // `bf16` holds `f16`; only fp16 itself counts.
    let fp16 = mlir.match_indices("f16").any(|(at, _)| !mlir[..at].ends_with('b'));
    (fp8 && (fp16 || mlir.contains("\"tosa.max_pool2d\""))) || mlir.contains("INEXACT_ROUND")
}

/// Whether printed MLIR has an operation that is not in MLIR's generic form
/// (`%0 = "tosa.abs"(%arg0) : ...`): IREE's parser does not read the custom
/// TOSA syntax of the pinned tosa-opt, so such text goes through `tosa-opt
/// --mlir-print-op-generic` first. The function itself (`func.func`,
/// `return`) may be in custom form: it has not changed across releases.
pub fn needs_generic_pass(mlir: &str) -> bool {
    mlir.lines().map(str::trim).any(|line| {
        let skip = line.is_empty()
            || line.starts_with("//")
            || line.starts_with("func.func ")
            || line == "}"
            || line == "return"
            || line.starts_with("return ");
        let op = match line.split_once(" = ") {
            Some((result, op)) if result.starts_with('%') => op,
            _ => line,
        };
        !skip && !op.starts_with('"')
    })
}

/// How `iree-compile` is asked to compile a TOSA graph for the CPU; the
/// target CPU ([`TargetCpu::flag`]) follows.
pub const COMPILE_FLAGS: [&str; 3] =
    ["--iree-input-type=tosa", "--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu"];

/// IREE's name for a tensor type of `elem` and `shape` (`2x3xbf16`); i48 is
/// i64 at IREE's function boundary.
pub fn iree_type(elem: ElemType, shape: &[usize]) -> String {
    let t = match elem {
        ElemType::Bool => "i1",
        ElemType::I8 => "i8",
        ElemType::I16 => "i16",
        ElemType::I32 => "i32",
        ElemType::I48 => "i64",
        ElemType::Fp16 => "f16",
        ElemType::Bf16 => "bf16",
        ElemType::Fp32 => "f32",
        ElemType::Fp8E4M3 => "f8E4M3FN",
        ElemType::Fp8E5M2 => "f8E5M2",
    };
    let mut s: String = shape.iter().map(|d| format!("{d}x")).collect();
    s.push_str(t);
    s
}

fn failed(reason: impl Into<String>) -> OracleError {
    OracleError::Failed { oracle: NAME.into(), reason: reason.into() }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), OracleError> {
    std::fs::write(path, bytes).map_err(|e| failed(format!("{}: cannot write: {e}", path.display())))
}

/// A documented IREE 3.13.0 bug of IREE's own passes, open, with its minimal
/// case under `corpus/findings/` (`oracle/tests/it/external_findings/iree.rs` checks
/// that each still reproduces).
const fn known(
    kind: &'static str,
    operator: Option<TosaOp>,
    message: Option<&'static str>,
    why: &'static str,
    finding: &'static str,
) -> KnownDiscrepancy {
    KnownDiscrepancy { operator, message, ..KnownDiscrepancy::open(kind, Owner::Iree, why, finding) }
}

/// The same, for a bug of upstream MLIR's TOSA passes that IREE runs.
const fn upstream_mlir(
    kind: &'static str,
    operator: Option<TosaOp>,
    message: Option<&'static str>,
    why: &'static str,
    finding: &'static str,
) -> KnownDiscrepancy {
    KnownDiscrepancy { owner: Owner::LlvmMlir, ..known(kind, operator, message, why, finding) }
}

const MINMAX_WHY: &str = "REDUCE_MAX over -inf values gives the lowest finite value (REDUCE_MIN over +inf the \
    highest; MAX_POOL2D likewise): IREE's TOSA input pipeline leaves the allow-non-finites option of upstream's \
    tosa-to-linalg and tosa-to-linalg-named off (llvm/llvm-project#222140 keeps the finite seed as the default on \
    purpose), so float min/max reductions start at the largest finite value instead of the infinity TOSA mandates";
const MINMAX_FINDING: &str = "corpus/findings/iree-reduce-max-of-infinities.spv";

const SIN_WHY: &str = "SIN and COS of large values (bf16 about 1e38, f32 beyond about 1e20) are infinite, outside \
    [-1, 1], compiled for a host CPU with AVX2 and FMA (iree@host): upstream MLIR's math polynomial approximation, \
    which IREE applies on llvm-cpu, reduces the argument in one f32 step, so y * y overflows (compiled for the \
    generic CPU they are zeros, within the error bound)";
const SIN_FINDING: &str = "corpus/findings/iree-sin-of-large-bf16.spv";

const CHANNEL_SUM_WHY: &str = "an integer convolution with a weight zero point over an input IREE proves constant \
    is wrong: the channel sum of its zero-point correction is a reduction adding a constant, which upstream MLIR's \
    Linalg vectorization adds once instead of once per channel";
const CHANNEL_SUM_FINDING: &str = "corpus/findings/iree-constant-channel-sum-vectorized-once.spv";

const MUL_FOLD_WHY: &str = "a floating-point MUL by a constant of zeros is folded to that constant (upstream MLIR's \
    tosa::MulOp::fold), so inf * 0 and NaN * 0 give 0 instead of NaN";

/// IREE's documented discrepancies: IREE's own bugs and the upstream MLIR
/// bugs IREE shows because it runs upstream's TOSA passes.
pub const IREE_KNOWN: &[KnownDiscrepancy] = &[
    known("wrong-output", Some(TosaOp::ReduceMax), None, MINMAX_WHY, MINMAX_FINDING),
    known("wrong-output", Some(TosaOp::ReduceMin), None, MINMAX_WHY, MINMAX_FINDING),
    known("wrong-output", Some(TosaOp::MaxPool2d), None, MINMAX_WHY, MINMAX_FINDING),
    upstream_mlir("wrong-output", Some(TosaOp::Sin), None, SIN_WHY, SIN_FINDING),
    upstream_mlir("wrong-output", Some(TosaOp::Cos), None, SIN_WHY, SIN_FINDING),
    KnownDiscrepancy {
        features: &[Feature::FloatMulByZeroConstant],
        ..upstream_mlir(
            "wrong-output",
            Some(TosaOp::Mul),
            None,
            MUL_FOLD_WHY,
            "corpus/findings/model-converter-folds-float-mul-by-zero.spv",
        )
    },
    KnownDiscrepancy {
        features: &[Feature::NegativeI48Constant],
        ..known(
            "wrong-output",
            None,
            None,
            "a negative i48 tensor constant is zero-extended to 64 bits by IREE's iree-tosa-convert-i48-to-i64 pass \
             (-3 becomes 2^48 - 3), so results built on it are 2^48 off",
            "corpus/findings/iree-negative-i48-constant.spv",
        )
    },
    known(
        "refused-valid",
        None,
        Some("'linalg.yield' op expected number of yield values"),
        "FFT2D or ARGMAX (a two-result linalg op) whose result is transposed does not compile: IREE's \
         iree-global-opt-propagate-linalg-transpose keeps one of its two inits ('linalg.yield' op expected number \
         of yield values)",
        "corpus/findings/iree-fft2d-transposed-result.spv",
    ),
    known(
        "refused-valid",
        None,
        Some("circular dependency: input operation uses partition output"),
        "a SCATTER whose values_in is computed in the graph and read again after it does not compile \
         (iree-stream-schedule-execution: circular dependency)",
        "corpus/findings/iree-scatter-reused-input-circular-dependency.spv",
    ),
    known(
        "refused-valid",
        None,
        Some("write affecting operations on global resources are restricted to workgroup distributed contexts"),
        "a convolution compared and returned both as bool and as i8 does not compile (the i1-stored output's copy \
         is left outside the distributed loop; iree-codegen-verify-workgroup-distribution)",
        "corpus/findings/iree-conv-bool-and-i8-outputs.spv",
    ),
    known(
        "refused-valid",
        None,
        Some("expected rank to be smaller or equal to the other rank"),
        "RESIZE down to 1x1 then padded in H and W does not compile (iree-dispatch-creation-bubble-up-expand-shapes \
         builds an extract_slice of higher rank than its source)",
        "corpus/findings/iree-resize-to-1x1-then-pad.spv",
    ),
    upstream_mlir(
        "refused-valid",
        None,
        Some("tosa.reshape it made from the input's tosa.transpose_conv"),
        "strided int16 TRANSPOSE_CONV2D does not compile: upstream MLIR's transpose-convolution decomposition \
         (tosa-optional-decompositions) makes i48 RESHAPE, PAD, SLICE and ADD, which upstream's tosa-validate refuses",
        "corpus/findings/iree-transpose-conv2d-int16-stride.spv",
    ),
    known(
        "refused-valid",
        None,
        Some("'arith.muli' op requires the same type for all operands and results"),
        "int16 CONV2D with a non-zero weight zero point does not compile ('arith.muli' op requires the same type; \
         IREE's iree-global-opt-quantized-conv-to-conv pass)",
        "corpus/findings/iree-conv2d-int16-weight-zero-point.spv",
    ),
    known(
        "refused-valid",
        None,
        Some("undefined symbol: __truncsfbf2"),
        "a CAST from an integer to bf16 does not compile on llvm-cpu (iree-lld: undefined symbol __truncsfbf2): the \
         canonicalizer after IREE's bf16 emulation folds truncf(sitofp to f32) back into sitofp to bf16, which no \
         later pass expands, and LLVM lowers it through compiler-rt's __truncsfbf2, which IREE's embedded link lacks",
        "corpus/findings/iree-cast-int-to-bf16-undefined-truncsfbf2.spv",
    ),
    known(
        "refused-valid",
        None,
        Some("maximum iteration count exceeded in fixed point pipeline"),
        "a SCATTER of constants whose result is cast (f32 to i16) does not compile: IREE's fixed-point global \
         optimization pipeline does not converge",
        "corpus/findings/iree-constant-scatter-cast-fixed-point.spv",
    ),
    known(
        "refused-valid",
        None,
        Some("LLVM Translation failed for operation: builtin.unrealized_conversion_cast"),
        "a GATHER of a SLICE at a non-zero offset does not compile: an (i64) -> index unrealized_conversion_cast \
         survives IREE's llvm-cpu lowering",
        "corpus/findings/iree-slice-then-gather-unrealized-cast.spv",
    ),
    KnownDiscrepancy {
        features: &[Feature::IntWeightZeroPoint],
        ..upstream_mlir("wrong-output", Some(TosaOp::Conv2d), None, CHANNEL_SUM_WHY, CHANNEL_SUM_FINDING)
    },
    KnownDiscrepancy {
        features: &[Feature::IntWeightZeroPoint],
        ..upstream_mlir("wrong-output", Some(TosaOp::TransposeConv2d), None, CHANNEL_SUM_WHY, CHANNEL_SUM_FINDING)
    },
    KnownDiscrepancy {
        features: &[Feature::NonFiniteValues],
        ..upstream_mlir(
            "wrong-output",
            Some(TosaOp::TransposeConv2d),
            None,
            "strided floating-point TRANSPOSE_CONV2D gives NaN where an infinite or NaN input meets a tap the operator \
             does not have: upstream MLIR's tosa-optional-decompositions rewrites it as a stride-1 CONV2D over \
             zero-padded weights, so input * 0 = NaN lands in outputs TOSA defines as the bias alone (the stride-1 \
             path's 0 * inf at a padded input is one of TOSA's optional extra multiplies, allowed)",
            "corpus/findings/iree-transpose-conv2d-zero-taps-nan.spv",
        )
    },
    KnownDiscrepancy {
        features: &[Feature::SingleRowScatterInput],
        ..known(
            "wrong-output",
            None,
            None,
            "a tensor updated in place by a one-row SCATTER and also returned is returned updated: \
             iree-stream-schedule-concurrency moves the in-place update before the copy that keeps the old value",
            "corpus/findings/iree-scatter-in-place-returned-input.spv",
        )
    },
    // The message names the operator: the same refusal of an ordinary int8
    // TRANSPOSE_CONV2D or CONV2D of a real network (corpus/networks) is not
    // this wide-stride pooling case.
    known(
        "refused-valid",
        None,
        Some("tosa.max_pool2d: One or more operations with large vector sizes"),
        "MAX_POOL2D with a wide stride does not compile: IREE's CPU tiling reads two output columns' input span \
         in one vector, which its own iree-llvmcpu-verify-vector-size-legality then rejects",
        "corpus/findings/iree-max-pool2d-wide-stride-large-vector.spv",
    ),
    KnownDiscrepancy {
        features: &[Feature::Fp8RoundedResult],
        ..known(
            "wrong-output",
            Some(TosaOp::Cast),
            None,
            "a CAST to fp8 of a value just below the type's smallest normal gives zero instead of that normal: IREE's \
             iree-convert-unsupported-float-arith emulates truncf to fp8 and masks the carry of the subnormal \
             rounding away",
            "corpus/findings/iree-fp8-cast-rounds-to-zero-below-min-normal.spv",
        )
    },
    KnownDiscrepancy {
        features: &[Feature::NonFiniteValues],
        ..upstream_mlir(
            "wrong-output",
            Some(TosaOp::Resize),
            None,
            "BILINEAR RESIZE of a one-row (or one-column) input gives inf where TOSA gives NaN: upstream MLIR's \
             tosa-to-linalg interpolates only along the other axis, leaving out the zero-weighted taps where \
             inf * 0 = NaN",
            "corpus/findings/iree-resize-unit-height-skips-non-finite.spv",
        )
    },
    upstream_mlir(
        "refused-valid",
        None,
        Some("'tosa.cast' op illegal: operation operand/result data types did not align with any profile or extension, got (i16,i48)"),
        "int16 DEPTHWISE_CONV2D with a 1x1 kernel does not compile: upstream MLIR's depthwise decomposition \
         (tosa-optional-decompositions) rewrites it into an i16 -> i48 CAST and an i48 MUL, which upstream's \
         tosa-validate refuses",
        "corpus/findings/iree-depthwise-conv2d-int16-1x1.spv",
    ),
    upstream_mlir(
        "refused-valid",
        None,
        Some("'tosa.pad' op expect input and output to have same element type, got 'i48' and 'i16'"),
        "int16 DEPTHWISE_CONV2D with a 1x1 kernel and padding does not compile (the same decomposition makes a PAD \
         from i16 to i48)",
        "corpus/findings/iree-depthwise-conv2d-int16-1x1.spv",
    ),
];
impl Oracle for Iree {
    fn instance(&self) -> &Instance {
        &self.instance
    }

    fn known_discrepancies(&self) -> &'static [KnownDiscrepancy] {
        IREE_KNOWN
    }

    /// IREE's own passes and runtime, then upstream MLIR's TOSA passes it runs.
    fn components(&self) -> &'static [Owner] {
        &[Owner::Iree, Owner::LlvmMlir]
    }

    /// A compilation takes about half a second: a fiftieth of the hunt's cases.
    fn default_sample(&self) -> f64 {
        0.02
    }

    /// Cases per batch: their graphs (2 to 4 a case: the case, its observed
    /// form, its forms; then the rescues) compile as one module, which
    /// shares `iree-compile`'s fixed cost of about 0.3 s.
    fn preferred_batch(&self) -> usize {
        self.preferred
    }

    /// It runs the graph's TOSA MLIR.
    fn reads_spirv(&self) -> bool {
        false
    }

    fn available(&self) -> Result<(), OracleError> {
        self.instance.own(self.tools().map(|_| ()))
    }

    /// The packages (or what `iree-compile --version` says), then the CPU
    /// it compiles for: `target-cpu generic`, or for `host` this machine's
    /// CPU model and ISA features, on which its answers depend.
    fn version(&self) -> Option<String> {
        let tools = self.version.get_or_init(|| self.reported_version()).clone()?;
        Some(format!("{tools}; {}", self.target.describe()))
    }

    /// Where the time went: `compile` is the translation to TOSA MLIR and
    /// every `iree-compile` (and `tosa-opt`) run, process start included;
    /// `run` is each `iree-run-module` run with its input files, process
    /// start included; `readback` is decoding its output files. `start`
    /// stays zero: no process outlives a call.
    fn phase_times(&self) -> PhaseTimes {
        *self.times.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    crate::capabilities! { validator: no, executor: yes, producer: no, reader: no, referee: no }
}

impl Executor for Iree {
    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        let answer = self.answer(std::slice::from_ref(request)).pop();
        self.instance.own(answer.unwrap_or_else(|| Err(failed("no answer for the request"))))
    }

    /// The batch's graphs compiled as one module (see [`batch`]), then each
    /// run; the answers are those [`crate::oracle::Executor::execute`] gives each request.
    fn execute_batch(&self, requests: &[ExecRequest<'_>]) -> Vec<Result<ExecOutcome, OracleError>> {
        self.answer(requests).into_iter().map(|r| self.instance.own(r)).collect()
    }

    /// The TOSA MLIR IREE compiles (`graph.mlir`: the printed graph, in
    /// generic form, with the adapter's fp8 barriers), its inputs as raw
    /// binaries, and the `iree-compile` / `iree-run-module` lines: IREE's
    /// own two tools are all it takes.
    fn standalone_execute(&self, request: &ExecRequest<'_>, dir: &Path) -> Result<Option<Standalone>, OracleError> {
        self.instance.own(self.reproducer(request, dir))
    }
}

impl Iree {
    /// Writes [`Executor::standalone_execute`]'s reproducer into `dir`.
    fn reproducer(&self, request: &ExecRequest<'_>, dir: &Path) -> Result<Option<Standalone>, OracleError> {
        let Ok(Ok(p)) = self.prepare(request) else { return Ok(None) };
        let work = ScratchDir::new("iree-standalone").map_err(|e| failed(e.to_string()))?;
        let Ok(text) = self.compilable(work.path(), &p.mlir)? else { return Ok(None) };
        write(&dir.join("graph.mlir"), text.as_bytes())?;
        let mut run = format!("iree-run-module --module=graph.vmfb --device=local-sync --function={}", p.entry);
        for (i, t) in request.inputs.iter().enumerate() {
            let file = format!("in{i}.bin");
            write(&dir.join(&file), &raw::to_raw(t))?;
            run.push_str(&format!(" --input={}=@{file}", iree_type(t.elem(), t.shape())));
        }
        for _ in &p.outputs {
            run.push_str(" --output=-");
        }
        Ok(Some(Standalone {
            tools: vec!["iree-compile".into(), "iree-run-module".into()],
            env: Vec::new(),
            commands: vec![format!("iree-compile {} graph.mlir -o graph.vmfb", self.compile_flags().join(" ")), run],
            look: "the compiler's message, or the values iree-run-module prints (i48 results print as i64)".into(),
        }))
    }
}

/// Cases per batch ([`Oracle::preferred_batch`]), from `spvgraph hunt`
/// runs of 60 valid cases at several sizes (docs/oracles.md).
pub const PREFERRED_BATCH: usize = 16;

/// The variable that overrides how [`Iree::from_config`] batches (for
/// measuring): `off` compiles each graph by itself, in hunt batches of one
/// case (what the adapter did before it batched); a number sets the cases
/// per hunt batch.
pub const BATCH_VARIABLE: &str = "SPVGRAPH_IREE_BATCH";

/// A [`BATCH_VARIABLE`] setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchSetting {
    /// Each graph compiled by itself, one case per hunt batch.
    Off,
    /// Batched, this many cases per hunt batch.
    Cases(usize),
}

/// Parses a [`BATCH_VARIABLE`] value.
pub fn parse_batch_setting(value: &str) -> Result<BatchSetting, String> {
    match value.trim() {
        "off" => Ok(BatchSetting::Off),
        v => match v.parse::<usize>() {
            Ok(n) if n > 0 => Ok(BatchSetting::Cases(n)),
            _ => Err(format!("{BATCH_VARIABLE}={value:?}: expected `off` or a number of cases (1 or more)")),
        },
    }
}

fn batch_from_env() -> Result<Option<BatchSetting>, String> {
    match std::env::var(BATCH_VARIABLE) {
        Ok(v) => parse_batch_setting(&v).map(Some),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(v)) => {
            Err(format!("{BATCH_VARIABLE}={v:?}: expected `off` or a number of cases (1 or more)"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iree_types_spell_shape_and_element() {
        assert_eq!(iree_type(ElemType::Bf16, &[2, 3]), "2x3xbf16");
        assert_eq!(iree_type(ElemType::I48, &[4]), "4xi64");
        assert_eq!(iree_type(ElemType::Bool, &[]), "i1");
        assert_eq!(iree_type(ElemType::Fp8E4M3, &[1]), "1xf8E4M3FN");
    }

    #[test]
    fn a_missing_build_makes_the_oracle_unavailable() {
        let dir = std::env::temp_dir().join("no-such-iree-for-spvgraph");
        let o = Iree::from_config(&Tools::discover(), Some(&dir));
        match o.available() {
            Err(OracleError::Unavailable { oracle, reason }) => {
                assert_eq!(oracle, NAME);
                assert!(reason.contains("iree-compile") || reason.contains("tosa-opt"), "{reason}");
            }
            other => panic!("expected Unavailable, got {other:?}"),
        }
        let words = spvgraph_ir::samples::elementwise_chain(1).encode_words().expect("encodes");
        let gc = Default::default();
        let r = o.execute(&ExecRequest { module: &words, entry_point: None, inputs: &[], graph_constants: &gc });
        assert!(matches!(r, Err(OracleError::Unavailable { .. })));
        let batch =
            o.execute_batch(&[ExecRequest { module: &words, entry_point: None, inputs: &[], graph_constants: &gc }; 2]);
        assert!(batch.iter().all(|r| matches!(r, Err(OracleError::Unavailable { .. }))), "{batch:?}");
    }

    /// The printer's text is in generic form; text with a TOSA operation in
    /// custom syntax is not.
    #[test]
    fn printed_mlir_needs_no_generic_pass() {
        let m = spvgraph_ir::samples::elementwise_chain(3);
        let entry = exec::interface(&m, None).expect("an interface").entry_point.expect("an entry point");
        let printed = spvgraph_ir::mlir::module_to_mlir(&m, &entry, &Default::default()).expect("printed");
        assert!(!needs_generic_pass(&printed), "{printed}");
        let custom = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  \
            %0 = tosa.abs %a : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n";
        assert!(needs_generic_pass(custom));
        assert!(!needs_generic_pass(&custom.replace("tosa.abs %a", "\"tosa.abs\"(%a)")));
        assert!(needs_generic_pass("  tosa.yield %0 : tensor<2xf32>\n"));
    }

    #[test]
    fn graphs_iree_refuses_dearly_compile_alone() {
        let cast = "  %1 = \"tosa.cast\"(%0) : (tensor<4xf8E5M2>) -> tensor<4xf16>\n";
        assert!(compiles_alone(cast));
        assert!(compiles_alone(&cast.replace("f8E5M2", "f8E4M3FN")));
        assert!(!compiles_alone(&cast.replace("f8E5M2", "f32")), "no fp8");
        assert!(!compiles_alone(&cast.replace("xf16", "xf32")), "fp8 to fp32 compiles");
        assert!(!compiles_alone(&cast.replace("xf16", "xbf16")), "bf16 is not fp16");
        let pool = "  %1 = \"tosa.max_pool2d\"(%0) <{kernel = array<i64: 2, 2>}> : (tensor<1x4x4x1xf8E4M3FN>) -> ...";
        assert!(compiles_alone(pool));
        assert!(!compiles_alone(&pool.replace("f8E4M3FN", "f32")));
        assert!(compiles_alone("rounding_mode = #tosa.rounding_mode<INEXACT_ROUND>"));
        assert!(!compiles_alone("rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>"));
    }

    #[test]
    fn batch_settings_are_parsed() {
        assert_eq!(parse_batch_setting("off"), Ok(BatchSetting::Off));
        assert_eq!(parse_batch_setting(" 8 "), Ok(BatchSetting::Cases(8)));
        for bad in ["0", "-1", "on", ""] {
            let e = parse_batch_setting(bad).err().unwrap_or_default();
            assert!(e.contains(BATCH_VARIABLE) && e.contains("off"), "{bad}: {e}");
        }
        let o = Iree::with_tools(IreeTools {
            tosa_opt: PathBuf::new(),
            compile: PathBuf::new(),
            run_module: PathBuf::new(),
        });
        assert_eq!(o.preferred_batch(), PREFERRED_BATCH);
        assert_eq!(o.with_preferred_batch(0).preferred_batch(), 1);
    }

    #[test]
    fn the_target_cpu_is_in_the_flags_and_the_version() {
        let o = Iree::with_tools(IreeTools {
            tosa_opt: PathBuf::from("/nonexistent/tosa-opt"),
            compile: PathBuf::from("/nonexistent/iree-compile"),
            run_module: PathBuf::from("/nonexistent/iree-run-module"),
        });
        assert_eq!(o.target_cpu(), TargetCpu::Generic);
        assert_eq!(o.compile_flags().last().map(String::as_str), Some("--iree-llvmcpu-target-cpu=generic"));
        let _ = o.version.set(Some("iree-base-compiler 3.13.0, iree-base-runtime 3.13.0".into()));
        assert_eq!(
            o.version().as_deref(),
            Some("iree-base-compiler 3.13.0, iree-base-runtime 3.13.0; target-cpu generic")
        );
        let host = o.with_target_cpu(TargetCpu::Host);
        assert_eq!(host.compile_flags().last().map(String::as_str), Some("--iree-llvmcpu-target-cpu=host"));
        let v = host.version().unwrap_or_default();
        assert!(v.starts_with("iree-base-compiler 3.13.0, iree-base-runtime 3.13.0; target-cpu host ("), "{v}");
    }
}

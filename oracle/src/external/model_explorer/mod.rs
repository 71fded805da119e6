//! Arm's adapters for Google's Model Explorer as a reader oracle
//! (`model-explorer`, [`crate::oracle::Capability::Describe`]): spirv-adapter-model-explorer
//! draws a SPIR-V module's graphs (operators, edges, typed and shaped
//! values, constants and their values), vgf-adapter-model-explorer a VGF
//! file's (model-converter's output). Both run in one persistent Python
//! worker per caller (`oracle/python/model_explorer_worker.py`, started
//! lazily, replaced after a crash, a hang or growth past the memory limit:
//! [`client`]), in the venv of the `sdk` channel (`ci/setup-oracles
//! --channel sdk`), and answer a [`Reading`] that the judgement compares
//! with the module's own facts (`spvgraph_ir::info`).
//!
//! What a reader owes an invalid module is a clear error: an exception with
//! a message is such an answer; a crash or a hang is not.

mod answer;
mod client;
pub mod display;

use crate::attribution::Owner;
use crate::external::process::{Ended, Limits};
use crate::oracle::{Abnormal, Instance, KnownDiscrepancy, Oracle, OracleError, PhaseTimes};
use crate::oracle::{ReadOutcome, Reader, Standalone};
use crate::tools::{Tool, Tools};
use client::{Exchange, Pool};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The oracle's name.
pub const NAME: &str = "model-explorer";

/// The most memory a worker may use: reading a module of a few kilobytes
/// takes tens of megabytes, so a reader that needs more than this for one
/// is a finding, not a reason to take memory from the backends.
pub const READER_MEMORY: u64 = 1 << 30;

/// The channel `ci/setup-oracles` installs the adapters into (their own
/// venv: the SPIR-V adapter's wheel is for CPython 3.11 only, and every
/// package is installed without its declared dependencies).
pub const SDK_CHANNEL: &str = "sdk";

/// Imports the adapters without `model_explorer`'s package `__init__`,
/// which starts importing its web server (flask, portpicker, ...): the
/// adapters use `model_explorer.graph_builder` alone, and the `sdk` channel
/// installs no server. The same shim the worker uses; harmless in a full
/// install.
const SHIM: &str = "import sys,types,importlib.util as u;m=types.ModuleType('model_explorer');\
m.__path__=list(u.find_spec('model_explorer').submodule_search_locations);sys.modules['model_explorer']=m";

/// The adapters behind the oracle interface.
pub struct ModelExplorer {
    instance: Instance,
    python: Result<PathBuf, String>,
    limits: Limits,
    pool: Pool,
    version: OnceLock<Result<String, String>>,
}

impl std::fmt::Debug for ModelExplorer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelExplorer").field("python", &self.python).field("limits", &self.limits).finish()
    }
}

impl ModelExplorer {
    /// The registry's constructor: the `sdk` channel's Python (or the
    /// release's, when `tools.json` lists one there), or, when `dir` is
    /// given (`--oracle-path model-explorer=DIR`), a venv holding the
    /// adapters (`DIR/bin/python`) or a Python executable.
    pub fn from_config(tools: &Tools, dir: Option<&Path>) -> ModelExplorer {
        let python = match dir {
            Some(d) if d.is_file() => Ok(d.to_path_buf()),
            Some(d) => {
                let p = d.join("bin").join("python");
                if p.is_file() {
                    Ok(p)
                } else {
                    Err(format!("{}: no bin/python there (a venv holding spirv-adapter-model-explorer)", d.display()))
                }
            }
            None => tools.get(Tool::ModelExplorerPython).map(Path::to_path_buf).or_else(|release| {
                let sdk = tools.channel(SDK_CHANNEL).map_err(|e| format!("{release}; {e}"))?;
                sdk.get(Tool::ModelExplorerPython).map(Path::to_path_buf).map_err(|e| e.to_string())
            }),
        };
        ModelExplorer {
            instance: Instance::of(NAME, tools),
            python,
            limits: Limits { memory_bytes: Some(READER_MEMORY), ..Limits::default() },
            pool: Pool::default(),
            version: OnceLock::new(),
        }
    }

    /// Through `Tools::discover()`.
    pub fn discover() -> ModelExplorer {
        ModelExplorer::from_config(&Tools::discover(), None)
    }

    /// With these limits on one request (the worker's own memory cap is set
    /// to the memory limit), the memory limit at most [`READER_MEMORY`].
    pub fn with_limits(mut self, limits: Limits) -> ModelExplorer {
        let memory_bytes = Some(limits.memory_bytes.map_or(READER_MEMORY, |m| m.min(READER_MEMORY)));
        self.limits = Limits { memory_bytes, ..limits };
        self
    }

    /// What the workers cost so far.
    pub fn worker_stats(&self) -> client::WorkerStats {
        self.pool.stats()
    }

    fn python(&self) -> Result<&Path, OracleError> {
        self.python.as_deref().map_err(|reason| OracleError::Unavailable {
            oracle: NAME.into(),
            reason: format!("{reason} (install with ci/setup-oracles --channel {SDK_CHANNEL})"),
        })
    }

    /// One request through a worker of the pool; a worker that ended is not
    /// given back (the next request starts a new one).
    fn request(&self, request: serde_json::Value, input: Option<(&str, &[u8])>) -> Result<Exchange, OracleError> {
        let python = self.python()?;
        let failed = |reason: String| OracleError::Failed { oracle: NAME.into(), reason };
        let mut worker = self.pool.take(python, &self.limits).map_err(failed)?;
        let mut request = request;
        if let Some((name, bytes)) = input {
            let path = worker.file(name);
            std::fs::write(&path, bytes).map_err(|e| failed(format!("cannot write {}: {e}", path.display())))?;
            if let Some(o) = request.as_object_mut() {
                o.insert("path".into(), path.display().to_string().into());
            }
        }
        let start = std::time::Instant::now();
        let exchange = worker.exchange(request, &self.limits);
        let lost = matches!(exchange, Exchange::Ended { .. });
        self.pool.count(|s| {
            s.busy += start.elapsed();
            s.answered += 1;
            s.lost += u64::from(lost);
        });
        if !lost {
            self.pool.give_back(worker, &self.limits);
        }
        Ok(exchange)
    }

    /// The outcome of a reading request.
    fn outcome(
        &self,
        exchange: Exchange,
        read: impl Fn(&answer::Answer) -> crate::oracle::Reading,
    ) -> Result<ReadOutcome, OracleError> {
        match exchange {
            Exchange::Answered(a) if a.ok => Ok(ReadOutcome::Read(read(&a))),
            Exchange::Answered(a) => {
                let error = a.error.clone().unwrap_or_else(|| "no error given".into());
                let trace =
                    a.traceback.as_deref().map(|t| crate::external::process::tail_of(t, 12)).unwrap_or_default();
                let cause = a.cause.as_deref().map(|c| format!("caused by {c}\n")).unwrap_or_default();
                // The worker's own alarm: the adapter was still running
                // Python at the time limit, a hang as far as a user can tell.
                if error.starts_with("TimeoutError") {
                    return Ok(ReadOutcome::Abnormal {
                        how: Abnormal::Timeout,
                        detail: format!("{error}\n{cause}{trace}"),
                    });
                }
                Ok(ReadOutcome::Rejected { message: error, detail: format!("{cause}{trace}") })
            }
            Exchange::Ended { how: Ended::Abnormal(how), stderr } => {
                Ok(ReadOutcome::Abnormal { how, detail: crate::external::process::tail_of(&stderr, 12) })
            }
            Exchange::Ended { how: Ended::Exited(code), stderr } => Err(OracleError::Failed {
                oracle: NAME.into(),
                reason: format!(
                    "the worker exited with status {code} during a request: {}",
                    crate::external::process::tail_of(&stderr, 8)
                ),
            }),
        }
    }

    /// `spirv-adapter-model-explorer 0.2.0, vgf-adapter-model-explorer
    /// 0.5.1 (...)`, from the worker; why not, when it cannot start.
    fn version_line(&self) -> &Result<String, String> {
        self.version.get_or_init(|| {
            let exchange = self.request(serde_json::json!({"kind": "version"}), None).map_err(|e| e.to_string())?;
            let a = match exchange {
                Exchange::Answered(a) if a.ok => a,
                Exchange::Answered(a) => return Err(a.error.unwrap_or_else(|| "the version request failed".into())),
                Exchange::Ended { how, stderr } => {
                    return Err(format!(
                        "the worker ended ({how:?}): {}",
                        crate::external::process::tail_of(&stderr, 8)
                    ))
                }
            };
            let get = |k: &str| a.rest.get(k).and_then(serde_json::Value::as_str).unwrap_or("unknown").to_string();
            let spirv = get("spirv-adapter-model-explorer");
            if spirv.starts_with("unavailable") {
                return Err(format!(
                    "spirv-adapter-model-explorer is not installed for {}",
                    self.python.as_deref().map(|p| p.display().to_string()).unwrap_or_default()
                ));
            }
            Ok(format!(
                "spirv-adapter-model-explorer {spirv}, vgf-adapter-model-explorer {} (ai-edge-model-explorer {}, \
                 ai-ml-sdk-vgf-library {}, {}; Python {})",
                get("vgf-adapter-model-explorer"),
                get("ai-edge-model-explorer"),
                get("ai-ml-sdk-vgf-library"),
                get("spirv-tools"),
                get("python")
            ))
        })
    }
}

impl Oracle for ModelExplorer {
    fn instance(&self) -> &Instance {
        &self.instance
    }

    fn available(&self) -> Result<(), OracleError> {
        let ready = self.python().and_then(|_| {
            self.version_line().as_ref().map(|_| ()).map_err(|reason| OracleError::Unavailable {
                oracle: NAME.into(),
                reason: format!("{reason} (install with ci/setup-oracles --channel {SDK_CHANNEL})"),
            })
        });
        self.instance.own(ready)
    }

    fn version(&self) -> Option<String> {
        self.version_line().as_ref().ok().cloned()
    }

    fn known_discrepancies(&self) -> &'static [KnownDiscrepancy] {
        KNOWN
    }

    /// The SPIR-V adapter for modules, the VGF adapter for VGF files; the
    /// Python they run on.
    fn components(&self) -> &'static [Owner] {
        &[Owner::SpirvAdapterModelExplorer, Owner::VgfAdapterModelExplorer]
    }

    /// Workers started, as start-up; requests, as running.
    fn phase_times(&self) -> PhaseTimes {
        let s = self.pool.stats();
        PhaseTimes { start: s.starting, run: s.busy, ..PhaseTimes::default() }
    }

    crate::capabilities! { validator: no, executor: no, producer: no, reader: yes, referee: no }
}

impl Reader for ModelExplorer {
    fn read(&self, module: &[u32]) -> Result<ReadOutcome, OracleError> {
        let bytes: Vec<u8> = module.iter().flat_map(|w| w.to_le_bytes()).collect();
        let request = serde_json::json!({"kind": "spirv", "show_graph_constants": true});
        let exchange = self.request(request, Some(("module.spv", &bytes)));
        self.instance.own(exchange.and_then(|e| self.outcome(e, answer::Answer::module_reading)))
    }

    fn read_container(&self, bytes: &[u8]) -> Result<ReadOutcome, OracleError> {
        let request = serde_json::json!({"kind": "vgf", "show_constants": true});
        let exchange = self.request(request, Some(("model.vgf", bytes)));
        self.instance.own(exchange.and_then(|e| self.outcome(e, answer::Answer::vgf_reading)))
    }

    /// The module and one `python3 -c` line that builds the graphs with the
    /// SPIR-V adapter and prints every node's label and attributes.
    fn standalone_read(&self, module: &[u32], dir: &Path) -> Result<Option<Standalone>, OracleError> {
        let bytes: Vec<u8> = module.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(dir.join("module.spv"), &bytes).map_err(|e| OracleError::Failed {
            oracle: self.instance.name().into(),
            reason: format!("cannot write module.spv: {e}"),
        })?;
        Ok(Some(Standalone {
            tools: vec!["python3".into()],
            env: Vec::new(),
            commands: vec![read_command("module.spv")],
            look: "each node's label and attributes as Model Explorer shows them (its constants' values, its \
                   types and shapes), or the adapter's exception"
                .into(),
        }))
    }
}

/// The `python3 -c` line that shows what the SPIR-V adapter draws of `file`.
pub fn read_command(file: &str) -> String {
    format!(
        "python3 -c \"{SHIM};from spirv_adapter_model_explorer.builder import build_spirv_graphs_from_bytes as b;\
[print(g.id, n.id, n.label, [(a.key, a.value) for a in n.attrs if not a.key.startswith('spv asm')]) \
for g in b(open('{file}','rb').read(), show_graph_constants=True) for n in g.nodes]\""
    )
}

/// The adapters' documented bugs, each with a minimal module in `corpus/findings/`.
pub const KNOWN: &[KnownDiscrepancy] = &[
    KnownDiscrepancy {
        message: Some("bf16 constant shown as float16: its bits read as fp16"),
        ..KnownDiscrepancy::open(
            "reader-differs",
            Owner::SpirvAdapterModelExplorer,
            "an OpTypeFloat 16 with the BFloat16KHR encoding is decoded as IEEE half (constants.py \
             _decode_float_literal looks at the width only) and labelled float16: a bf16 constant's values are \
             shown as the fp16 numbers of its bits",
            "corpus/findings/model-explorer-bf16-constant-read-as-half.spv",
        )
    },
    KnownDiscrepancy {
        message: Some("constant shown as float8: its raw bits"),
        ..KnownDiscrepancy::open(
            "reader-differs",
            Owner::SpirvAdapterModelExplorer,
            "8-bit floats (Float8E4M3EXT, Float8E5M2EXT) are not decoded at all (constants.py decodes widths 16, 32 \
             and 64): an fp8 constant shows the integers of its bit patterns, labelled float8",
            "corpus/findings/model-explorer-fp8-constant-raw-bits.spv",
        )
    },
    KnownDiscrepancy {
        message: Some("constant shown as int8: read unsigned"),
        ..KnownDiscrepancy::open(
            "reader-differs",
            Owner::SpirvAdapterModelExplorer,
            "a TOSA operand's integer tensor constant is shown signed (TOSA integers are signless, read as signed) \
             only when its constituents are scalars: formatting.py reinterpret_tensor_constant_value re-reads \
             scalar constituents alone, so a rank-2-or-more constant built from sub-tensor constants keeps the \
             unsigned decoding of OpTypeInt N 0 under its int label",
            "corpus/findings/model-explorer-nested-int-constant-unsigned.spv",
        )
    },
    KnownDiscrepancy {
        message: Some("MemoryError"),
        ..KnownDiscrepancy::open(
            "reader-rejects-valid",
            Owner::SpirvAdapterModelExplorer,
            "OpConstantNull and OpConstantCompositeReplicateEXT tensor constants are expanded into a Python tuple \
             element by element (constants.py _resolve_null_constant_value, _resolve_replicated_constant_value) \
             before anything is drawn: a large one takes seconds and gigabytes (a 1x4096x4096 null tensor 4 s and \
             180 MB), a larger one exhausts memory (MemoryError under the worker's cap, the kernel's OOM killer \
             without one)",
            "corpus/findings/model-explorer-null-constant-expanded.spv",
        )
    },
    KnownDiscrepancy {
        message: Some("format UNKNOWN_"),
        ..KnownDiscrepancy::open(
            "reader-differs",
            Owner::VgfAdapterModelExplorer,
            "the adapter's VkFormat enum lacks the three formats of SPV_ARM_tensors' other element types \
             (VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM = 1000460001, ..._FLOAT8E4M3_ARM = 1000460002, \
             ..._FLOAT8E5M2_ARM = 1000460003): bf16 and fp8 resources are shown as UNKNOWN_<value>, and their \
             constants' values are not decoded",
            "corpus/findings/vgf-adapter-bf16-fp8-formats-unknown.spv",
        )
    },
    KnownDiscrepancy {
        message: Some("output set from a constant"),
        ..KnownDiscrepancy::open(
            "reader-differs",
            Owner::VgfAdapterModelExplorer,
            "a graph output set directly from a constant (OpGraphSetOutputARM of an OpConstant* or of an \
             OpGraphConstantARM) is drawn as an output resource with no edge and no value: the VGF view copies only \
             the incoming edges of the SPIR-V adapter's Output node, which has none for a constant (its value is an \
             attribute) and, graph constants being attributes in the view it builds on, none for a graph constant \
             either (the constant resource is connected to operation nodes only)",
            "corpus/findings/vgf-adapter-constant-output-value-lost.spv",
        )
    },
    KnownDiscrepancy {
        message: Some("an output resource drawn from"),
        ..KnownDiscrepancy::open(
            "reader-differs",
            Owner::VgfAdapterModelExplorer,
            "a graph segment's output slots are paired with the module's outputs by position (builder.py \
             _segment_io_nodes takes the slot's index for the module's OutputIndex; compute segments are matched by \
             binding): where a value is returned twice, model-converter writes one module output and two slots on \
             its binding, so every output resource after it is drawn from the operation of another output and the \
             last one from nothing",
            "corpus/findings/vgf-adapter-shared-output-edges-shifted.spv",
        )
    },
];

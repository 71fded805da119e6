//! IREE (a second TOSA compiler, on the CPU) as an executing oracle.
//!
//! A graph goes: SPIR-V module → TOSA MLIR ([`spvgraph_ir::mlir::module_to_mlir`])
//! → `tosa-opt --mlir-print-op-generic` (IREE's parser rejects the custom
//! TOSA syntax the pinned tosa-opt prints, but reads the generic form) →
//! `iree-compile` for `llvm-cpu` → `iree-run-module` on the `local-sync`
//! device, with every input and output as raw binary of an explicit type
//! (`--input=2x3xbf16=@in0.bin`; IREE's `.npy` reader has no bf16).
//!
//! Conventions of IREE 3.13, found by running it:
//!
//! * The exported function is the MLIR function, named after the entry point.
//! * i48 tensors are i64 at the function boundary (the raw form is 8 bytes
//!   per element either way); bool is one byte per element.
//! * Compilation dominates (about half a second of CPU per small graph;
//!   compiling several graphs in one module costs the same per graph), so
//!   compiled modules are cached by the MLIR's hash for the life of the
//!   oracle, and compile failures with them.
//! * What IREE cannot lower is [`Refusal::Unsupported`]; other compiler or
//!   runtime errors on a valid graph are [`Refusal::Rejected`] (see
//!   [`classify`]); crashes, time-outs and running out of memory are
//!   [`ExecOutcome::Abnormal`].

pub mod barrier;
pub mod classify;

use super::process::{self, Limits, ProcessRun, ScratchDir};
use super::raw;
use crate::attribution::Owner;
use crate::exec::{self, Port};
use crate::features::Feature;
use crate::oracle::{
    Abnormal, Capability, ExecOutcome, ExecRequest, KnownDiscrepancy, Oracle, OracleError, Refusal, Standalone,
};
use crate::tools::{Tool, Tools};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const NAME: &str = crate::registry::IREE;

/// The executables the adapter runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IreeTools {
    /// `tosa-opt` (tosa-tools), for the generic form.
    pub tosa_opt: PathBuf,
    /// `iree-compile`.
    pub compile: PathBuf,
    /// `iree-run-module`.
    pub run_module: PathBuf,
}

/// A compilation's result, as cached.
#[derive(Clone, Debug)]
enum Compiled {
    Module(PathBuf),
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

/// IREE behind the [`Oracle`] interface.
#[derive(Clone, Debug)]
pub struct Iree {
    tools: Result<IreeTools, String>,
    limits: Limits,
    /// The recorded package versions, or what `iree-compile` reports (asked once, when first needed).
    version: std::sync::OnceLock<Option<String>>,
    cache: Arc<Mutex<Cache>>,
}

impl Default for Iree {
    fn default() -> Self {
        Iree::discover()
    }
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
        Iree {
            tools: found,
            limits: Limits { timeout: Self::DEFAULT_TIMEOUT, ..Limits::default() },
            version,
            cache: Arc::default(),
        }
    }

    /// Uses these executables.
    pub fn with_tools(tools: IreeTools) -> Iree {
        Iree {
            tools: Ok(tools),
            limits: Limits { timeout: Self::DEFAULT_TIMEOUT, ..Limits::default() },
            version: std::sync::OnceLock::new(),
            cache: Arc::default(),
        }
    }

    /// Sets the time and memory limits of each tool run.
    pub fn with_limits(mut self, limits: Limits) -> Iree {
        self.limits = limits;
        self
    }

    /// The executables in use.
    pub fn tools(&self) -> Result<&IreeTools, OracleError> {
        self.tools.as_ref().map_err(|reason| OracleError::Unavailable { oracle: NAME.into(), reason: reason.clone() })
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

    /// Compiles TOSA MLIR (custom or generic syntax) for `llvm-cpu`, or
    /// returns the cached result of an earlier compilation of the same text.
    fn compile(&self, mlir: &str) -> Result<Compiled, OracleError> {
        let key = {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            mlir.hash(&mut h);
            h.finish()
        };
        if let Some(hit) = self.lock_cache().entries.get(&key) {
            return Ok(hit.clone());
        }
        let work = ScratchDir::new("iree").map_err(|e| failed(e.to_string()))?;
        let compiled = self.compile_in(work.path(), mlir)?;
        let mut cache = self.lock_cache();
        let compiled = match compiled {
            Compiled::Module(vmfb) => {
                if cache.dir.is_none() {
                    cache.dir = Some(ScratchDir::new("iree-cache").map_err(|e| failed(e.to_string()))?);
                }
                let dir = cache.dir.as_ref().map(|d| d.path().to_path_buf()).unwrap_or_default();
                let kept = dir.join(format!("{key:016x}.vmfb"));
                std::fs::rename(&vmfb, &kept)
                    .or_else(|_| std::fs::copy(&vmfb, &kept).map(|_| ()))
                    .map_err(|e| failed(format!("{}: {e}", kept.display())))?;
                Compiled::Module(kept)
            }
            other => other,
        };
        if cache.entries.insert(key, compiled.clone()).is_none() {
            cache.order.push_back(key);
        }
        while cache.order.len() > CACHE_ENTRIES {
            if let Some(old) = cache.order.pop_front() {
                if let Some(Compiled::Module(p)) = cache.entries.remove(&old) {
                    let _ = std::fs::remove_file(p);
                }
            }
        }
        Ok(compiled)
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        // A panic while holding the lock leaves a usable cache: entries are
        // only ever inserted whole.
        self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Writes `graph.mlir` and its generic form `graph.generic.mlir` (what
    /// IREE's parser reads) into `dir`; the generic text, or why there is none.
    fn generic_form(&self, dir: &Path, mlir: &str) -> Result<Result<String, Compiled>, OracleError> {
        let tools = self.tools()?;
        write(&dir.join("graph.mlir"), mlir.as_bytes())?;
        let mut cmd = Command::new(&tools.tosa_opt);
        cmd.args(["graph.mlir", "--mlir-print-op-generic", "-o", "graph.generic.mlir"]);
        let run = self.run(cmd, dir)?;
        if let Some(how) = run.abnormal() {
            return Ok(Err(Compiled::Abnormal(how, format!("tosa-opt: {}", run.tail(12)))));
        }
        if !run.success() {
            let text = run.tail(12);
            // MLIR's TOSA verifier reports operation errors as "'tosa.x' op ...".
            if text.contains("' op ") {
                return Ok(Err(Compiled::Refused(Refusal::Invalid, format!("tosa-opt rejected the graph: {text}"))));
            }
            return Err(failed(format!("tosa-opt --mlir-print-op-generic failed ({}): {text}", run.status_text())));
        }
        std::fs::read_to_string(dir.join("graph.generic.mlir"))
            .map(Ok)
            .map_err(|e| failed(format!("tosa-opt wrote no generic form: {e}")))
    }

    fn compile_in(&self, dir: &Path, mlir: &str) -> Result<Compiled, OracleError> {
        let tools = self.tools()?;
        let mut generic = match self.generic_form(dir, mlir)? {
            Ok(g) => g,
            Err(not) => return Ok(not),
        };
        if let Some(kept_apart) = barrier::with_fp8_barriers(&generic) {
            write(&dir.join("graph.generic.mlir"), kept_apart.as_bytes())?;
            generic = kept_apart;
        }
        let mut cmd = Command::new(&tools.compile);
        cmd.args(COMPILE_FLAGS);
        cmd.args([
            // Harness workers run in parallel already.
            "--mlir-disable-threading",
            "graph.generic.mlir",
            "-o",
            "graph.vmfb",
        ]);
        let run = self.run(cmd, dir)?;
        if let Some(how) = run.abnormal() {
            return Ok(Compiled::Abnormal(how, format!("iree-compile: {}", run.tail(12))));
        }
        if !run.success() {
            let (kind, reason) = classify::classify(&generic, &run.stderr_text());
            return Ok(Compiled::Refused(kind, format!("iree-compile: {reason}")));
        }
        Ok(Compiled::Module(dir.join("graph.vmfb")))
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
        let run = self.run(cmd, dir.path())?;
        if let Some(how) = run.abnormal() {
            return Ok(ExecOutcome::Abnormal { how, detail: format!("iree-run-module: {}", run.tail(12)) });
        }
        if !run.success() {
            let reason = format!("iree-run-module: {}: {}", run.status_text(), run.tail(12));
            return Ok(ExecOutcome::Refused { kind: Refusal::Rejected, reason });
        }
        let mut result = Vec::with_capacity(outputs.len());
        for (j, port) in outputs.iter().enumerate() {
            let path = dir.join(format!("out{j}.bin"));
            let bytes =
                std::fs::read(&path).map_err(|e| failed(format!("iree-run-module wrote no output {j}: {e}")))?;
            let t = raw::from_raw(port.elem, &port.shape, &bytes)
                .map_err(|e| failed(format!("output {j} of iree-run-module: {e}")))?;
            result.push(t);
        }
        Ok(ExecOutcome::Outputs(result))
    }
}

/// How `iree-compile` is asked to compile a TOSA graph for the CPU.
const COMPILE_FLAGS: [&str; 4] = [
    "--iree-input-type=tosa",
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
];

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
/// case under `corpus/findings/` (`oracle/tests/it/external_findings.rs` checks
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
    highest; MAX_POOL2D likewise): upstream MLIR's tosa-to-linalg seeds float min/max reductions with the largest \
    finite value unless its allow-non-finites option is set, and IREE does not set it";
const MINMAX_FINDING: &str = "corpus/findings/iree-reduce-max-of-infinities.spv";
const MINMAX_UPSTREAM: Option<&str> = Some("llvm/llvm-project#222140");

const SIN_WHY: &str = "SIN and COS of large bf16 values (about 1e38) are infinite, outside [-1, 1]";
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
    KnownDiscrepancy {
        upstream: MINMAX_UPSTREAM,
        ..upstream_mlir("wrong-output", Some(TosaOp::ReduceMax), None, MINMAX_WHY, MINMAX_FINDING)
    },
    KnownDiscrepancy {
        upstream: MINMAX_UPSTREAM,
        ..upstream_mlir("wrong-output", Some(TosaOp::ReduceMin), None, MINMAX_WHY, MINMAX_FINDING)
    },
    KnownDiscrepancy {
        upstream: MINMAX_UPSTREAM,
        ..upstream_mlir("wrong-output", Some(TosaOp::MaxPool2d), None, MINMAX_WHY, MINMAX_FINDING)
    },
    known("wrong-output", Some(TosaOp::Sin), None, SIN_WHY, SIN_FINDING),
    known("wrong-output", Some(TosaOp::Cos), None, SIN_WHY, SIN_FINDING),
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
    fn name(&self) -> &str {
        NAME
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

    /// It runs the graph's TOSA MLIR.
    fn reads_spirv(&self) -> bool {
        false
    }

    fn capabilities(&self) -> &'static [Capability] {
        &[Capability::Execute]
    }

    fn available(&self) -> Result<(), OracleError> {
        self.tools().map(|_| ())
    }

    fn version(&self) -> Option<String> {
        self.version.get_or_init(|| self.reported_version()).clone()
    }

    /// The graph's generic TOSA MLIR, its inputs as raw binaries, and the
    /// `iree-compile` / `iree-run-module` lines.
    fn standalone_execute(&self, request: &ExecRequest<'_>, dir: &Path) -> Result<Option<Standalone>, OracleError> {
        let Ok(module) = Module::decode_words(request.module) else { return Ok(None) };
        let Ok(iface) = exec::interface(&module, request.entry_point) else { return Ok(None) };
        let Some(entry) = iface.entry_point.clone() else { return Ok(None) };
        let Ok(mlir) = spvgraph_ir::mlir::module_to_mlir(&module, &entry, request.graph_constants) else {
            return Ok(None);
        };
        if self.generic_form(dir, &mlir)?.is_err() {
            return Ok(None);
        }
        let mut run = format!("iree-run-module --module=graph.vmfb --device=local-sync --function={entry}");
        for (i, t) in request.inputs.iter().enumerate() {
            let file = format!("in{i}.bin");
            write(&dir.join(&file), &raw::to_raw(t))?;
            run.push_str(&format!(" --input={}=@{file}", iree_type(t.elem(), t.shape())));
        }
        for _ in &iface.outputs {
            run.push_str(" --output=-");
        }
        Ok(Some(Standalone {
            tools: vec!["iree-compile".into(), "iree-run-module".into()],
            env: Vec::new(),
            commands: vec![format!("iree-compile {} graph.generic.mlir -o graph.vmfb", COMPILE_FLAGS.join(" ")), run],
            look: "the compiler's message, or the values iree-run-module prints (i48 results print as i64)".into(),
        }))
    }

    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        self.tools()?;
        let invalid = |reason: String| Ok(ExecOutcome::Refused { kind: Refusal::Invalid, reason });
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
                Err(refused) => return Ok(refused),
            };
        match self.compile(&mlir)? {
            Compiled::Refused(kind, reason) => Ok(ExecOutcome::Refused { kind, reason }),
            Compiled::Abnormal(how, detail) => Ok(ExecOutcome::Abnormal { how, detail }),
            Compiled::Module(vmfb) => self.run_module(&vmfb, &entry, request.inputs, &iface.outputs),
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
    }
}

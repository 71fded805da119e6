//! model-converter (Arm's ML SDK: TOSA MLIR → VGF through MLIR's SPIR-V
//! serializer) as a producing oracle.
//!
//! A request's MLIR goes: `model-converter -i graph.mlir -o graph.vgf
//! [--emit-debug-info]` → `vgf_dump -i graph.vgf` (the VGF's JSON
//! description: modules, segments, bindings, constants, resources) →
//! `vgf_dump --dump-spirv M` (the graph segment's SPIR-V) and
//! `vgf_dump --dump-constant C` (each graph constant's raw data) →
//! [`ProduceOutcome::Module`] with the words, the graph-constant data, the
//! [`InterfaceMap`](crate::produced::InterfaceMap) and
//! [`ProducerNote`](crate::produced::ProducerNote)s.
//!
//! Conventions of model-converter 0.11, found by running it:
//!
//! * Exit status 255 and "Failed to compile network" when it refuses the
//!   input (MLIR verifier errors, unsupported constructs).
//! * The entry point is `graph_partition_0`; inputs are bound at set 0,
//!   bindings `0..n`, outputs after them. The VGF's model sequence names
//!   them `input_<k>` / `output_<k>` after the MLIR argument / result.
//! * Constants with more than about 16 elements become `OpGraphConstantARM`s
//!   whose data is in the VGF's constant table.
//! * A result that is just an argument is not a graph output when the graph
//!   has other outputs: the model sequence gives it the argument's binding.
//! * With `--emit-debug-info` the output depends on heap addresses (the order
//!   of `DebugOperation`s changes from run to run); the adapter runs the
//!   converter without address-space randomisation so that a finding
//!   reproduces.

pub mod vgf;

use super::process::{self, Limits, ProcessRun, ScratchDir};
use super::raw;
use crate::attribution::{Owner, Status};
use crate::exec;
use crate::features::Feature;
use crate::oracle::{Instance, KnownDiscrepancy, Oracle, OracleError, ProduceOutcome, ProduceRequest};
use crate::oracle::{Producer, Standalone};
use crate::produced::{InterfaceMap, OutputSource, ProducerNote, Side};
use crate::tools::{Tool, Tools};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use vgf::{SpirvSlot, VgfDescription};

const NAME: &str = crate::registry::MODEL_CONVERTER;

/// The MLIR file name inside the scratch directory; with `--emit-debug-info`
/// it ends up in the module's `OpString`s, so it is fixed.
const SOURCE: &str = "graph.mlir";
const VGF: &str = "graph.vgf";

/// The two executables the adapter runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConverterTools {
    /// `model-converter`.
    pub converter: PathBuf,
    /// `vgf_dump`.
    pub vgf_dump: PathBuf,
}

/// model-converter behind the [`Oracle`] interface.
#[derive(Clone, Debug)]
pub struct ModelConverter {
    instance: Instance,
    tools: Result<ConverterTools, String>,
    limits: Limits,
    /// The recorded package versions, or what the tools report (asked once, when first needed).
    version: std::sync::OnceLock<Option<String>>,
}

impl Default for ModelConverter {
    fn default() -> Self {
        ModelConverter::discover()
    }
}

impl ModelConverter {
    /// The default time limit of one tool run.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

    /// The tools `ci/setup-oracles` installed ([`Tools::discover`]).
    pub fn discover() -> ModelConverter {
        ModelConverter::from_config(&Tools::discover(), None)
    }

    /// The registry's constructor. Without `dir`, the provisioned
    /// `model-converter` and `vgf_dump` (of the channel `tools` belongs to).
    /// With `dir` (`--oracle-path model-converter=DIR`, a user's own build or
    /// another release), `model-converter` found under `DIR` (`DIR`, `DIR/bin`,
    /// or anywhere below, as in a `site-packages` of either wheel layout:
    /// [`crate::tools::find_executable`]), and `vgf_dump` from there too
    /// when present (else the provisioned one).
    pub fn from_config(tools: &Tools, dir: Option<&Path>) -> ModelConverter {
        let limits = Limits { timeout: Self::DEFAULT_TIMEOUT, ..Limits::default() };
        let provisioned = |t: Tool| tools.get(t).map(Path::to_path_buf).map_err(|e| e.to_string());
        let Some(dir) = dir else {
            let found = provisioned(Tool::ModelConverter)
                .and_then(|converter| Ok(ConverterTools { converter, vgf_dump: provisioned(Tool::VgfDump)? }));
            let version = std::sync::OnceLock::new();
            if let (Some(a), Some(b)) =
                (tools.package_version(Tool::ModelConverter), tools.package_version(Tool::VgfDump))
            {
                let _ = version.set(Some(format!("{a}, {b}")));
            }
            return ModelConverter {
                instance: Instance::of(NAME, tools),
                tools: found.map_err(|e| format!("{e} (ai-ml-sdk-model-converter: run ci/setup-oracles)")),
                limits,
                version,
            };
        };
        let find = |name: &str| crate::tools::find_executable(dir, name);
        let found = match find("model-converter") {
            None => Err(format!("{}: no model-converter there (nor in bin/, nor an executable below)", dir.display())),
            Some(converter) => match find("vgf_dump").map_or_else(|| provisioned(Tool::VgfDump), Ok) {
                Ok(vgf_dump) => Ok(ConverterTools { converter, vgf_dump }),
                Err(e) => Err(format!("{}: no vgf_dump there, and {e}", dir.display())),
            },
        };
        ModelConverter {
            instance: Instance::of(NAME, tools),
            tools: found,
            limits,
            version: std::sync::OnceLock::new(),
        }
    }

    /// Uses these two executables.
    pub fn with_tools(converter: PathBuf, vgf_dump: PathBuf) -> ModelConverter {
        ModelConverter {
            instance: Instance::release(NAME),
            tools: Ok(ConverterTools { converter, vgf_dump }),
            limits: Limits { timeout: Self::DEFAULT_TIMEOUT, ..Limits::default() },
            version: std::sync::OnceLock::new(),
        }
    }

    /// Sets the time and memory limits of each tool run.
    pub fn with_limits(mut self, limits: Limits) -> ModelConverter {
        self.limits = limits;
        self
    }

    /// The executables in use.
    pub fn tools(&self) -> Result<&ConverterTools, OracleError> {
        self.tools.as_ref().map_err(|reason| OracleError::Unavailable { oracle: NAME.into(), reason: reason.clone() })
    }

    /// What `model-converter --version` and `vgf_dump --version` say
    /// (`model-converter 0.11.0 (release/v0.11.0), vgf_dump 0.11.0 (...)`).
    fn reported_version(&self) -> Option<String> {
        let tools = self.tools().ok()?;
        let dir = ScratchDir::new("model-converter-version").ok()?;
        let ask = |exe: &Path, label: &str| -> Option<String> {
            let mut cmd = Command::new(exe);
            cmd.arg("--version");
            let run = process::run(cmd, dir.path(), &Limits { timeout: Duration::from_secs(10), memory_bytes: None });
            let text = run.ok().filter(ProcessRun::success)?.stdout_text();
            let v: serde_json::Value = serde_json::from_str(&text).ok()?;
            let version = v.get("version")?.as_str()?;
            Some(match v.get("revision").and_then(|r| r.as_str()) {
                Some(r) => format!("{label} {version} ({r})"),
                None => format!("{label} {version}"),
            })
        };
        let a = ask(&tools.converter, "model-converter")?;
        Some(match ask(&tools.vgf_dump, "vgf_dump") {
            Some(b) => format!("{a}, {b}"),
            None => a,
        })
    }

    /// Converts `request` in `dir` (which keeps `graph.mlir`, `graph.vgf`
    /// and nothing else when the call returns).
    pub fn produce_in(&self, dir: &Path, request: &ProduceRequest<'_>) -> Result<ProduceOutcome, OracleError> {
        let tools = self.tools()?;
        write(&dir.join(SOURCE), request.mlir.as_bytes())?;
        let vgf_path = dir.join(VGF);
        let _ = std::fs::remove_file(&vgf_path);
        let mut cmd = Command::new(&tools.converter);
        cmd.args(["-i", SOURCE, "-o", VGF]);
        if request.debug_info {
            cmd.arg("--emit-debug-info");
        }
        without_address_randomisation(&mut cmd);
        let run = self.run(cmd, dir)?;
        if let Some(how) = run.abnormal() {
            return Ok(ProduceOutcome::Abnormal { how, detail: converter_tail(&run) });
        }
        if !run.success() {
            return Ok(ProduceOutcome::Rejected {
                message: format!("{}: {}", run.status_text(), converter_tail(&run)),
            });
        }
        if !vgf_path.is_file() {
            return Ok(ProduceOutcome::Rejected {
                message: format!("exit status 0 but no VGF file was written: {}", converter_tail(&run)),
            });
        }
        let desc = VgfDescription::parse(&self.vgf_dump(dir, &[])?.stdout_text()).map_err(failed)?;
        let mut outcome = self.read_vgf(dir, &desc, request.mlir)?;
        // The VGF itself goes along for readers of VGF files.
        if let ProduceOutcome::Module { container, .. } = &mut outcome {
            *container = std::fs::read(&vgf_path).ok();
        }
        Ok(outcome)
    }

    /// Runs `vgf_dump -i graph.vgf ARGS` and insists on success: the VGF
    /// library reading the converter's own file is not expected to fail.
    fn vgf_dump(&self, dir: &Path, args: &[&str]) -> Result<ProcessRun, OracleError> {
        let tools = self.tools()?;
        let mut cmd = Command::new(&tools.vgf_dump);
        cmd.args(["-i", VGF]).args(args);
        let run = self.run(cmd, dir)?;
        if !run.success() {
            return Err(failed(format!(
                "vgf_dump {} on the converter's VGF: {}: {}",
                args.join(" "),
                run.status_text(),
                run.tail(8)
            )));
        }
        Ok(run)
    }

    fn run(&self, cmd: Command, dir: &Path) -> Result<ProcessRun, OracleError> {
        process::run(cmd, dir, &self.limits).map_err(|e| failed(e.to_string()))
    }

    /// The outcome for a VGF the converter wrote: the first graph segment's
    /// module, its constants and its interface map.
    fn read_vgf(&self, dir: &Path, desc: &VgfDescription, mlir: &str) -> Result<ProduceOutcome, OracleError> {
        let segments = desc.graph_segments();
        let Some(segment) = segments.first() else {
            return Err(failed("the VGF has no graph segment"));
        };
        let entry = desc.modules.iter().find(|m| m.index == segment.module_index).ok_or_else(|| {
            failed(format!("segment {:?} names module {}, which the VGF lacks", segment.name, segment.module_index))
        })?;
        let spirv = self.vgf_dump(dir, &["--dump-spirv", &segment.module_index.to_string()])?.stdout;
        if spirv.len() % 4 != 0 {
            return Err(failed(format!("vgf_dump gave {} bytes of SPIR-V, not whole words", spirv.len())));
        }
        let words: Vec<u32> = spirv.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let mut notes = Vec::new();
        if let Some(from) = function_name(mlir) {
            if from != entry.entry_point {
                notes.push(ProducerNote::RenamedEntryPoint { from, to: entry.entry_point.clone() });
            }
        }
        if desc.model_sequence.segments.len() > 1 {
            notes.push(ProducerNote::Partitioned { segments: desc.model_sequence.segments.len() });
        }
        let unusable = |reason: String| InterfaceMap {
            entry_point: entry.entry_point.clone(),
            inputs: Vec::new(),
            outputs: desc
                .model_sequence
                .outputs
                .iter()
                .map(|o| OutputSource::Missing { name: o.name.clone(), reason: reason.clone() })
                .collect(),
        };
        // A module that does not decode or lacks its entry point is still the
        // producer's output: validators judge it; it just cannot be run.
        let module = match Module::decode_words(&words) {
            Ok(m) => m,
            Err(e) => {
                let interface = unusable(format!("the produced module does not decode: {e}"));
                return Ok(ProduceOutcome::Module {
                    words,
                    graph_constants: BTreeMap::new(),
                    interface,
                    notes,
                    container: None,
                });
            }
        };
        let info = spvgraph_ir::info::module_info(&module);
        let ports = exec::interface(&module, Some(&entry.entry_point));
        let (ports, (inputs, outputs)) = match (ports, vgf::spirv_slots(&info, &entry.entry_point)) {
            (Ok(p), Some(s)) => (p, s),
            (Err(e), _) => {
                let interface = unusable(format!("the produced graph cannot be described: {e}"));
                return Ok(ProduceOutcome::Module {
                    words,
                    graph_constants: BTreeMap::new(),
                    interface,
                    notes,
                    container: None,
                });
            }
            (_, None) => {
                let interface = unusable(format!("the produced module has no entry point {:?}", entry.entry_point));
                return Ok(ProduceOutcome::Module {
                    words,
                    graph_constants: BTreeMap::new(),
                    interface,
                    notes,
                    container: None,
                });
            }
        };
        let interface = match vgf::interface_map(desc, segment, &entry.entry_point, &inputs, &outputs) {
            Ok((map, more)) => {
                notes.extend(more);
                notes.extend(reshapes(desc, &map, &ports, &inputs, &outputs));
                map
            }
            Err(reason) => unusable(reason),
        };
        let mut graph_constants = BTreeMap::new();
        for cb in &segment.constant_bindings {
            let Some(port) = ports.graph_constants.iter().find(|p| p.index == cb.graph_constant_id) else {
                // Declared for the segment but not used by the graph: not needed to run it.
                continue;
            };
            let bytes = self.vgf_dump(dir, &["--dump-constant", &cb.constant_table_index.to_string()])?.stdout;
            let t = raw::from_raw(port.elem, &port.shape, &bytes).map_err(|e| {
                failed(format!(
                    "constant table entry {} (GraphConstantID {}, {} {:?}): {e}",
                    cb.constant_table_index, cb.graph_constant_id, port.elem, port.shape
                ))
            })?;
            graph_constants.insert(cb.graph_constant_id, t);
        }
        if !graph_constants.is_empty() {
            notes.push(ProducerNote::GraphConstants { ids: graph_constants.keys().copied().collect() });
        }
        Ok(ProduceOutcome::Module { words, graph_constants, interface, notes, container: None })
    }
}

/// Runs the child with address-space randomisation off (`setarch -R`):
/// model-converter's debug output depends on heap addresses.
fn without_address_randomisation(cmd: &mut Command) {
    // SAFETY: the closure runs in the forked child before exec and only makes
    // the async-signal-safe personality(2) system call.
    unsafe {
        cmd.pre_exec(|| {
            let current = libc::personality(0xffff_ffff);
            if current != -1 {
                libc::personality((current as libc::c_ulong) | libc::ADDR_NO_RANDOMIZE as libc::c_ulong);
            }
            Ok(())
        });
    }
}

/// Notes for interfaces whose shape in the module differs from the VGF's
/// record of the source (rank 0 becomes `[1]`).
fn reshapes(
    desc: &VgfDescription,
    map: &InterfaceMap,
    ports: &exec::Interface,
    inputs: &[SpirvSlot],
    outputs: &[SpirvSlot],
) -> Vec<ProducerNote> {
    let mut notes = Vec::new();
    let seq = &desc.model_sequence;
    for (slot, link) in inputs.iter().zip(&map.inputs) {
        let from = seq.inputs.iter().find(|s| s.binding as usize == link.source).and_then(|s| desc.shape(s.mrt_index));
        if let (Some(from), Some(port)) = (from, ports.inputs.get(slot.index)) {
            if from != port.shape {
                notes.push(ProducerNote::Reshaped {
                    side: Side::Input,
                    index: link.source,
                    from,
                    to: port.shape.clone(),
                });
            }
        }
    }
    for (k, source) in map.outputs.iter().enumerate() {
        let OutputSource::Output { index, .. } = source else { continue };
        let from = seq.outputs.iter().find(|s| s.index as usize == k).and_then(|s| desc.shape(s.mrt_index));
        let port = outputs.iter().find(|s| s.index == *index).and_then(|s| ports.outputs.get(s.index));
        if let (Some(from), Some(port)) = (from, port) {
            if from != port.shape {
                notes.push(ProducerNote::Reshaped { side: Side::Output, index: k, from, to: port.shape.clone() });
            }
        }
    }
    notes
}

/// The name of the first `func.func` in MLIR text.
fn function_name(mlir: &str) -> Option<String> {
    let rest = &mlir[mlir.find("func.func")? + "func.func".len()..];
    let rest = rest.trim_start().strip_prefix('@')?;
    if let Some(quoted) = rest.strip_prefix('"') {
        return quoted.split('"').next().map(str::to_string);
    }
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || "_$.-".contains(c))).unwrap_or(rest.len());
    Some(rest[..end].to_string())
}

/// The converter's last diagnostics, without the VGF writer's progress lines.
fn converter_tail(run: &ProcessRun) -> String {
    let text = format!("{}\n{}", run.stdout_text(), run.stderr_text());
    let kept: String = text
        .lines()
        .filter(|l| !l.starts_with("VGF [debug]") && !l.starts_with("Successfully saved"))
        .collect::<Vec<_>>()
        .join("\n");
    process::tail_of(&kept, 12)
}

fn failed(reason: impl Into<String>) -> OracleError {
    OracleError::Failed { oracle: NAME.into(), reason: reason.into() }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), OracleError> {
    std::fs::write(path, bytes).map_err(|e| failed(format!("{}: cannot write: {e}", path.display())))
}

/// model-converter's documented disagreements with the expectation.
pub const MODEL_CONVERTER_KNOWN: &[KnownDiscrepancy] = &[
    KnownDiscrepancy {
        kind: "producer-invalid-output",
        rule: Some(RuleId::LayoutGraphBodyInstruction),
        operator: None,
        mutator: None,
        why: "with --emit-debug-info an OpLine is emitted before each OpCompositeExtract of a two-result operator \
              (FFT2D, RFFT2D) inside the graph body, where SPV_ARM_graph allows no OpLine; spirv-val 2025.5, \
              SPIRV-Tools main and the in-tree catalogue reject it. model-converter only passes emitDebugInfo on: \
              upstream MLIR's SPIR-V serializer writes a debug line before every non-OpExtInst instruction, graph \
              bodies included",
        finding: "corpus/findings/model-converter-opline-in-graph-body.spv",
        message: None,
        features: &[],
        owner: Owner::LlvmMlir,
        status: Status::Open,
        upstream: None,
    },
    KnownDiscrepancy {
        kind: "producer-wrong-semantics",
        rule: None,
        operator: Some(TosaOp::Mul),
        mutator: None,
        why: "a floating-point MUL by a constant of zeros is folded to that constant by upstream MLIR's \
              tosa::MulOp::fold (TosaCanonicalizations.cpp), so inf * 0 and NaN * 0 give 0 instead of NaN (the sign \
              of a zero result is free in TOSA)",
        finding: "corpus/findings/model-converter-folds-float-mul-by-zero.spv",
        message: None,
        features: &[Feature::FloatMulByZeroConstant],
        owner: Owner::LlvmMlir,
        status: Status::Open,
        upstream: None,
    },
];

impl Oracle for ModelConverter {
    fn instance(&self) -> &Instance {
        &self.instance
    }

    /// Two conversions per case (without and with debug info), about 50 ms each.
    fn default_sample(&self) -> f64 {
        0.05
    }

    fn available(&self) -> Result<(), OracleError> {
        self.instance.own(self.tools().map(|_| ()))
    }

    fn version(&self) -> Option<String> {
        self.version.get_or_init(|| self.reported_version()).clone()
    }

    fn known_discrepancies(&self) -> &'static [KnownDiscrepancy] {
        MODEL_CONVERTER_KNOWN
    }

    /// The converter's own code, then upstream MLIR (TOSA passes, SPIR-V serializer) it is built on.
    fn components(&self) -> &'static [Owner] {
        &[Owner::ModelConverter, Owner::LlvmMlir]
    }

    crate::capabilities! { validator: no, executor: no, producer: yes, reader: no, referee: no }
}

impl Producer for ModelConverter {
    /// The TOSA MLIR, and the converter and `vgf_dump` lines that take the
    /// module out of the VGF file.
    fn standalone_produce(&self, request: &ProduceRequest<'_>, dir: &Path) -> Result<Option<Standalone>, OracleError> {
        self.instance.own(write(&dir.join("graph.mlir"), request.mlir.as_bytes()))?;
        let debug = if request.debug_info { " --emit-debug-info" } else { "" };
        Ok(Some(Standalone {
            tools: vec!["model-converter".into(), "vgf_dump".into()],
            env: Vec::new(),
            commands: vec![
                format!("model-converter -i graph.mlir -o graph.vgf{debug}"),
                "vgf_dump -i graph.vgf -o graph.spv --dump-spirv 0".into(),
            ],
            look: "graph.spv, the module the converter made (e.g. spirv-dis graph.spv; spirv-val --target-env \
                   vulkan1.3 graph.spv); with --emit-debug-info the order of DebugOperations follows heap addresses \
                   unless run under setarch -R"
                .into(),
        }))
    }

    fn produce(&self, request: &ProduceRequest<'_>) -> Result<ProduceOutcome, OracleError> {
        let produced = self.tools().and_then(|_| {
            let dir = ScratchDir::new("model-converter").map_err(|e| failed(e.to_string()))?;
            self.produce_in(dir.path(), request)
        });
        self.instance.own(produced)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_names_are_read_from_the_mlir() {
        assert_eq!(function_name("// x\nfunc.func @graph0(%arg0: tensor<1xf32>)"), Some("graph0".into()));
        assert_eq!(function_name("func.func @\"my graph\"(%a"), Some("my graph".into()));
        assert_eq!(function_name("module {}"), None);
    }

    #[test]
    fn a_missing_converter_makes_the_oracle_unavailable() {
        let dir = std::env::temp_dir();
        let m = ModelConverter::from_config(&Tools::discover(), Some(&dir.join("no-such-dir-for-spvgraph")));
        match m.available() {
            Err(OracleError::Unavailable { oracle, reason }) => {
                assert_eq!(oracle, NAME);
                assert!(reason.contains("no model-converter"), "{reason}");
            }
            other => panic!("expected Unavailable, got {other:?}"),
        }
        let r = m.produce(&ProduceRequest { mlir: "", debug_info: false });
        assert!(matches!(r, Err(OracleError::Unavailable { .. })));
        assert_eq!((&m as &dyn Oracle).capabilities(), &[crate::oracle::Capability::Produce]);
    }
}

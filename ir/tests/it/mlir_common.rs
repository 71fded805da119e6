//! Shared helpers of the `mlir_*` tests: running `tosa-opt`, converting with
//! `model-converter`, and summarizing a graph for comparison. Included by
//! the other `mlir_*` test files with `#[path]`; it has no tests of its own.

use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `--tosa-attach-target` with every profile and extension TOSA.001000.1 has.
pub const TARGET: &str = "--tosa-attach-target=profiles=pro_int,pro_fp \
                          extensions=int16,bf16,fp8e4m3,fp8e5m2,fft,doubleround,inexactround";

/// Runs `tosa-opt` with TOSA validation (strict spec alignment) for every
/// profile and extension; `Err` carries its diagnostics.
pub fn tosa_opt(tool: &Path, file: &Path) -> Result<(), String> {
    let out = Command::new(tool)
        .arg(file)
        .arg(TARGET)
        .arg("--tosa-validate=strict-op-spec-alignment")
        .args(["-o", "/dev/null"])
        .output()
        .map_err(|e| format!("cannot run tosa-opt: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Checks many printed functions with one `tosa-opt` run; when that fails,
/// re-runs each alone to name the failing ones (name, diagnostics + text).
pub fn tosa_opt_failures(tool: &Path, dir: &Path, printed: &[(String, String)]) -> Vec<(String, String)> {
    let all: String = printed.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>().join("\n");
    let file = dir.join("all.mlir");
    std::fs::write(&file, all).expect("write scratch file");
    if tosa_opt(tool, &file).is_ok() {
        return Vec::new();
    }
    let mut failures = Vec::new();
    for (k, (name, text)) in printed.iter().enumerate() {
        let f = dir.join(format!("one{k}.mlir"));
        std::fs::write(&f, text).expect("write scratch file");
        if let Err(e) = tosa_opt(tool, &f) {
            failures.push((name.clone(), format!("{e}\n{text}")));
        }
    }
    failures
}

/// The paths of one conversion's files.
pub struct Converted {
    /// The decoded SPIR-V module 0 of the VGF.
    pub module: Module,
    /// The VGF file (for `vgf_dump --dump-constant`).
    pub vgf: PathBuf,
}

/// Converts MLIR text with model-converter and extracts SPIR-V module 0 with
/// `vgf_dump --dump-spirv 0`.
pub fn convert(mc: &Path, dump: &Path, dir: &Path, stem: &str, text: &str) -> Result<Converted, String> {
    let mlir = dir.join(format!("{stem}.mlir"));
    let vgf = dir.join(format!("{stem}.vgf"));
    let spv = dir.join(format!("{stem}.spv"));
    std::fs::write(&mlir, text).map_err(|e| e.to_string())?;
    let out = Command::new(mc).arg("-i").arg(&mlir).arg("-o").arg(&vgf).output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("model-converter: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let out = Command::new(dump)
        .arg("-i")
        .arg(&vgf)
        .arg("-o")
        .arg(&spv)
        .args(["--dump-spirv", "0"])
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("vgf_dump: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let bytes = std::fs::read(&spv).map_err(|e| e.to_string())?;
    let module = Module::decode_bytes(&bytes).map_err(|e| format!("decoding model-converter output: {e}"))?;
    Ok(Converted { module, vgf })
}

/// The raw bytes of constant `index` of a VGF (`vgf_dump --dump-constant`).
pub fn vgf_constant(dump: &Path, vgf: &Path, index: u32) -> Result<Vec<u8>, String> {
    let out_file = vgf.with_extension(format!("c{index}.bin"));
    let out = Command::new(dump)
        .arg("-i")
        .arg(vgf)
        .arg("-o")
        .arg(&out_file)
        .args(["--dump-constant", &index.to_string()])
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("vgf_dump --dump-constant {index}: {}", String::from_utf8_lossy(&out.stderr)));
    }
    std::fs::read(&out_file).map_err(|e| e.to_string())
}

/// `fp32[2,3]`.
pub fn type_text(elem: ElemType, shape: &[u64]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("{elem}[{}]", dims.join(","))
}

/// The tensor types a type stands for: itself, each array element, or each
/// struct member.
pub fn flat_types(a: &Analysis<'_>, ty: Id) -> Vec<String> {
    match a.ty(ty) {
        Some(Type::Tensor(t)) => match (t.elem, &t.shape) {
            (Some(e), Some(s)) => vec![type_text(e, s)],
            _ => vec![format!("{t:?}")],
        },
        Some(Type::Array { element, length }) => {
            let one = flat_types(a, element);
            (0..length.unwrap_or(0)).flat_map(|_| one.clone()).collect()
        }
        Some(Type::Struct(members)) => members.iter().flat_map(|&m| flat_types(a, m)).collect(),
        other => vec![format!("{other:?}")],
    }
}

/// Interface types (arrays flattened) and the TOSA operator multiset
/// (operator with result types) of a graph.
#[derive(Debug, PartialEq)]
pub struct Summary {
    /// Input tensor types, in function-argument order.
    pub inputs: Vec<String>,
    /// Output tensor types, in function-result order.
    pub outputs: Vec<String>,
    /// `"CONV2D -> i32[1,4,4,4]"` → count.
    pub ops: BTreeMap<String, usize>,
}

/// The graph of entry point `entry` (the first entry point when `None`).
pub fn graph_of(m: &Module, entry: Option<&str>) -> Option<Id> {
    m.insts.iter().find_map(|i| match i {
        Inst::GraphEntryPoint { graph, name, .. } if entry.is_none_or(|e| e == name) => Some(*graph),
        _ => None,
    })
}

/// Summarizes the graph of `entry` (the first entry point when `None`).
pub fn summarize(m: &Module, entry: Option<&str>) -> Summary {
    let a = Analysis::new(m);
    let graph = graph_of(m, entry).expect("entry point");
    let view = a.graph(graph).expect("graph definition");
    let Some(Type::Graph { inputs, outputs }) = a.ty(view.ty) else { panic!("graph type") };
    let mut ops = BTreeMap::new();
    for &i in &view.body {
        if let Inst::Tosa { ty, op, .. } = &m.insts[i] {
            *ops.entry(format!("{} -> {}", op.name(), flat_types(&a, *ty).join(", "))).or_insert(0) += 1;
        }
    }
    Summary {
        inputs: inputs.iter().flat_map(|&t| flat_types(&a, t)).collect(),
        outputs: outputs.iter().flat_map(|&t| flat_types(&a, t)).collect(),
        ops,
    }
}

/// Runs `f` over `items` on two threads (the machine has two cores), keeping order.
pub fn parallel<T: Sync, U: Send>(items: &[T], f: impl Fn(usize, &T) -> U + Sync) -> Vec<U> {
    let f = &f;
    let mut tagged: Vec<(usize, U)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|w| {
                s.spawn(move || {
                    items.iter().enumerate().filter(|(k, _)| k % 2 == w).map(|(k, t)| (k, f(k, t))).collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|h| h.join().expect("worker thread")).collect()
    });
    tagged.sort_by_key(|(k, _)| *k);
    tagged.into_iter().map(|(_, u)| u).collect()
}

/// Where graph-constant data comes from: the map given to the printer, or
/// the VGF model-converter wrote.
pub enum ConstData<'a> {
    /// GraphConstantID → data.
    Map(&'a BTreeMap<u32, TensorData>),
    /// `vgf_dump` and the VGF file.
    Vgf(&'a Path, &'a Path),
}

/// What each operand of the first `op` instruction of the first graph is,
/// independent of how it is written: `input 1`, `scalar 0x1`, or
/// `tensor i8[1] [0xfb]` (element bits, whatever constant form holds them).
pub fn operand_signature(m: &Module, op: TosaOp, data: &ConstData<'_>) -> Result<Vec<String>, String> {
    let a = Analysis::new(m);
    let graph = graph_of(m, None).ok_or("no entry point")?;
    let view = a.graph(graph).ok_or("no graph")?;
    let args = view
        .body
        .iter()
        .find_map(|&i| match &m.insts[i] {
            Inst::Tosa { op: o, args, .. } if *o == op => Some(args.clone()),
            _ => None,
        })
        .ok_or_else(|| format!("no {op} in the graph"))?;
    let mut out = Vec::new();
    for id in args {
        let inst = a.def(id).ok_or_else(|| format!("{id} undefined"))?;
        let sig = match inst {
            Inst::GraphInput { input_index, .. } => format!("input {}", a.const_uint(*input_index).unwrap_or(u64::MAX)),
            Inst::GraphConstant { ty, graph_constant_id, .. } => {
                let t = a.tensor_type(*ty).ok_or("graph constant type")?;
                let (Some(elem), Some(shape)) = (t.elem, t.shape.clone()) else { return Err("unshaped".into()) };
                let bits: Vec<u64> = match data {
                    ConstData::Map(map) => map.get(graph_constant_id).ok_or("no data")?.to_bits(),
                    ConstData::Vgf(dump, vgf) => {
                        let bytes = vgf_constant(dump, vgf, *graph_constant_id)?;
                        let count = t.element_count().unwrap_or(0) as usize;
                        if count == 0 || bytes.len() % count != 0 {
                            return Err(format!("{} bytes for {count} elements", bytes.len()));
                        }
                        bytes
                            .chunks(bytes.len() / count)
                            .map(|c| c.iter().rev().fold(0, |v, &b| (v << 8) | u64::from(b)))
                            .collect()
                    }
                };
                tensor_signature(elem, &shape, &bits)
            }
            _ => match (a.tensor_type(inst.result_type().unwrap_or(Id(0))), a.const_tensor_bits(id, 1 << 20)) {
                (Some(t), Some(bits)) => match (t.elem, t.shape) {
                    (Some(elem), Some(shape)) => tensor_signature(elem, &shape, &bits),
                    _ => return Err(format!("{id}: unshaped constant")),
                },
                (None, Some(bits)) => format!("scalar {:#x}", bits.first().copied().unwrap_or(0)),
                _ => format!("value {}", inst_name(inst)),
            },
        };
        out.push(sig);
    }
    Ok(out)
}

fn tensor_signature(elem: ElemType, shape: &[u64], bits: &[u64]) -> String {
    let width = elem.storage_bits();
    let mask = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
    let masked: Vec<String> = bits.iter().map(|b| format!("{:#x}", b & mask)).collect();
    format!("tensor {} [{}]", type_text(elem, shape), masked.join(", "))
}

fn inst_name(inst: &Inst) -> String {
    match inst {
        Inst::Tosa { op, .. } => op.name().to_string(),
        other => format!("{:?}", other).split([' ', '{', '(']).next().unwrap_or("").to_string(),
    }
}

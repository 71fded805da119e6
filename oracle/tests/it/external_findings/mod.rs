//! model-converter and IREE bugs found by the hand hunt
//! (`cargo run --release -p spvgraph-oracle --example producer_executor_hunt`),
//! kept as corpus findings (`corpus/findings/model-converter-*`, `iree-*`:
//! `.spv`, `.spvasm`, `.mlir`, `.json` manifest, `.npy` inputs, a `.md`
//! note, and for model-converter the module it produced,
//! `.produced.spv`/`.produced.spvasm`), each made by hand as small as it
//! goes, and checked here: each still reproduces with the pinned tools
//! (when one stops reproducing, update or retire the finding), and the
//! adapters classify it as the finding says.
//!
//! IREE's findings are in [`iree`] (their notes in [`iree_notes`]),
//! model-converter's in [`model_converter`]; what both use (the finding
//! table, the case writer, the checks of the stored files) is here.
//!
//! Regenerate the files with
//! `cargo run --release -p spvgraph-oracle --example write_findings -- external`.

mod iree;
mod iree_notes;
mod model_converter;

use model_converter::{note, produce};
use spvgraph_generator::files::{write_case, Extras};
use spvgraph_generator::{Case, CaseMeta, EntryPoint, InputTensor, InterfaceSlot};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Id, Module};
use spvgraph_oracle::exec::{self, Executor};
use spvgraph_oracle::external::iree::{Iree, TargetCpu};
use spvgraph_oracle::external::model_converter::ModelConverter;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{
    ExecOutcome, ExecRequest, Oracle, ProduceOutcome, ProduceRequest, Refusal, ValidateOptions, Verdict,
};
use spvgraph_oracle::oracle::{Executor as _, Producer as _, Validator as _};
use spvgraph_oracle::tools::{Tool, Tools};
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn findings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/findings")
}

fn tensor(elem: ElemType, shape: &[usize], bits: &[u64]) -> TensorData {
    TensorData::from_bits(elem, shape, bits).expect("shape matches")
}

fn f32s(shape: &[usize], values: &[f32]) -> TensorData {
    let bits: Vec<u64> = values.iter().map(|v| u64::from(v.to_bits())).collect();
    tensor(ElemType::Fp32, shape, &bits)
}

/// A graph `main` with these input and output tensor types, whose body
/// `body` builds from the graph inputs and returns the output values.
fn graph(
    inputs: &[(ElemType, &[u32])],
    outputs: &[(ElemType, &[u32])],
    body: impl FnOnce(&mut ModuleBuilder, &[Id]) -> Vec<Id>,
) -> Module {
    let mut b = ModuleBuilder::new();
    let ins: Vec<Id> = inputs.iter().map(|(e, s)| b.type_tensor(*e, Some(s))).collect();
    let outs: Vec<Id> = outputs.iter().map(|(e, s)| b.type_tensor(*e, Some(s))).collect();
    let gty = b.type_graph(&ins, &outs);
    let vars: Vec<Id> =
        ins.iter().chain(&outs).enumerate().map(|(i, &t)| b.interface_variable(t, 0, i as u32)).collect();
    // Constants the body needs are declared before the graph begins.
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let args: Vec<Id> = ins.iter().enumerate().map(|(i, &t)| b.graph_input(t, i as u32, None)).collect();
    let results = body(&mut b, &args);
    for (j, r) in results.into_iter().enumerate() {
        b.graph_output(r, j as u32, None);
    }
    b.end_graph();
    b.finish()
}

/// The inputs of [`fft_module`]: ones and zeros.
fn fft_inputs() -> Vec<TensorData> {
    vec![f32s(&[1, 4, 4], &[1.0; 16]), f32s(&[1, 4, 4], &[0.0; 16])]
}

/// FFT2D of a `1x4x4` fp32 pair; with `transpose`, the imaginary part is
/// returned transposed (`perms = [0, 2, 1]`).
fn fft_module(transpose: bool) -> Module {
    let t = (ElemType::Fp32, &[1u32, 4, 4][..]);
    graph(&[t, t], &[t, t], |b, x| {
        let ty = b.type_tensor(ElemType::Fp32, Some(&[1, 4, 4]));
        let pair = b.type_struct(vec![ty, ty]);
        let no = b.const_bool(false);
        let fft = b.tosa(TosaOp::Fft2d, pair, vec![no, no, x[0], x[1]]);
        let re = b.composite_extract(ty, fft, 0);
        let im = b.composite_extract(ty, fft, 1);
        if transpose {
            let perms = b.const_i32_vector(&[0, 2, 1]);
            vec![re, b.tosa(TosaOp::Transpose, ty, vec![perms, im])]
        } else {
            vec![re, im]
        }
    })
}

struct Finding {
    stem: &'static str,
    module: Module,
    inputs: Vec<TensorData>,
    /// For model-converter findings: write the module it makes with `--emit-debug-info`.
    produced_with_debug_info: bool,
    note: &'static str,
}

/// Every finding of this family: IREE's, then model-converter's.
fn findings() -> Vec<Finding> {
    let mut all = iree::findings();
    all.extend(model_converter::findings());
    all
}

fn build(f: &Finding) -> Case {
    let iface = exec::interface(&f.module, Some("main")).expect("an entry point");
    let slot = |p: &exec::Port, binding: u32| InterfaceSlot {
        index: p.index,
        element: p.element,
        elem: p.elem,
        shape: p.shape.iter().map(|&d| d as u32).collect(),
        descriptor_set: 0,
        binding,
        used: true,
    };
    let inputs = iface
        .inputs
        .iter()
        .zip(&f.inputs)
        .enumerate()
        .map(|(i, (p, t))| InputTensor { slot: slot(p, i as u32), data: t.clone() })
        .collect();
    let n = iface.inputs.len() as u32;
    let outputs = iface.outputs.iter().enumerate().map(|(j, p)| slot(p, n + j as u32)).collect();
    let a = spvgraph_ir::analysis::Analysis::new(&f.module);
    let meta = CaseMeta {
        ops: a.tosa_ops().into_iter().collect(),
        graphs: 1,
        nodes: a.tosa_histogram().values().sum(),
        ..CaseMeta::default()
    };
    Case {
        module: f.module.clone(),
        entry_points: vec![EntryPoint { name: "main".into(), graph: 0, inputs, outputs }],
        graph_constants: BTreeMap::new(),
        meta,
    }
}

fn mlir(f: &Finding) -> String {
    spvgraph_ir::mlir::module_to_mlir(&f.module, "main", &BTreeMap::new()).expect("prints")
}

/// Writes this file's findings into `corpus/findings/` (the example
/// `write_findings`; the tests here check what it wrote).
pub fn write_findings() {
    let dir = findings_dir();
    std::fs::create_dir_all(&dir).expect("findings dir");
    let mc = ModelConverter::discover();
    for f in findings() {
        let case = build(&f);
        write_case(&dir, f.stem, &case, &Extras { spvasm: true, mlir: true }).expect("write case");
        std::fs::write(dir.join(format!("{}.md", f.stem)), note(&f)).expect("write note");
        if f.stem.starts_with("model-converter-") {
            let words = produce(&mc, &f);
            let m = Module::decode_words(&words).expect("decodes");
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            std::fs::write(dir.join(format!("{}.produced.spv", f.stem)), bytes).expect("write");
            std::fs::write(dir.join(format!("{}.produced.spvasm", f.stem)), spvgraph_ir::text::disassemble(&m))
                .expect("write");
        }
    }
}

fn finding(stem: &str) -> Finding {
    findings().into_iter().find(|f| f.stem == stem).expect("listed")
}

#[test]
fn documented_discrepancies_point_at_stored_findings() {
    let mc = spvgraph_oracle::external::model_converter::MODEL_CONVERTER_KNOWN;
    for k in mc.iter().chain(spvgraph_oracle::external::iree::IREE_KNOWN) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(k.finding);
        assert!(path.is_file(), "{}", path.display());
    }
}

#[test]
fn stored_findings_are_the_modules_built_here() {
    for f in findings() {
        let stored = std::fs::read(findings_dir().join(format!("{}.spv", f.stem))).expect("stored .spv");
        assert_eq!(
            stored,
            f.module.encode_bytes().expect("encodes"),
            "{}: regenerate with `cargo run --release -p spvgraph-oracle --example write_findings -- external`",
            f.stem
        );
        let md = std::fs::read_to_string(findings_dir().join(format!("{}.md", f.stem))).expect("stored .md");
        assert_eq!(
            md,
            note(&f),
            "{}: regenerate with `cargo run --release -p spvgraph-oracle --example write_findings -- external`",
            f.stem
        );
        let v = Validator::new(ValidateOptions::default())
            .check_words(&f.module.encode_words().expect("encodes"))
            .verdict();
        assert!(v.is_valid(), "{}: the finding's own module must be valid: {v:?}", f.stem);
    }
}

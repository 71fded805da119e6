//! Shared helpers for the consumer-oracle tests (`emulation_layer`,
//! `vulkan`; included with `#[path]`; as a test target of its own it has no
//! tests): tensors from values, one-graph modules with chosen bindings,
//! requests and outputs.

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Id;
use spvgraph_oracle::oracle::{ExecOutcome, ExecRequest, OracleError};
use std::collections::BTreeMap;

/// An interface tensor: element type, shape, DescriptorSet, Binding.
#[derive(Clone)]
pub struct Io {
    pub elem: ElemType,
    pub shape: Vec<u32>,
    pub set: u32,
    pub binding: u32,
}

pub fn io(elem: ElemType, shape: &[u32], set: u32, binding: u32) -> Io {
    Io { elem, shape: shape.to_vec(), set, binding }
}

/// A one-graph module with entry point `main`: `body` gets the builder, the
/// graph's input values and the output types, and returns the output values.
pub fn module(
    inputs: &[Io],
    outputs: &[Io],
    body: impl FnOnce(&mut ModuleBuilder, &[Id], &[Id]) -> Vec<Id>,
) -> Vec<u32> {
    let mut b = ModuleBuilder::new();
    let in_types: Vec<Id> = inputs.iter().map(|i| b.type_tensor(i.elem, Some(&i.shape))).collect();
    let out_types: Vec<Id> = outputs.iter().map(|o| b.type_tensor(o.elem, Some(&o.shape))).collect();
    let gty = b.type_graph(&in_types, &out_types);
    let vars: Vec<Id> = inputs
        .iter()
        .zip(&in_types)
        .chain(outputs.iter().zip(&out_types))
        .map(|(io, &t)| b.interface_variable(t, io.set, io.binding))
        .collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let values: Vec<Id> = in_types.iter().enumerate().map(|(i, &t)| b.graph_input(t, i as u32, None)).collect();
    let results = body(&mut b, &values, &out_types);
    for (j, r) in results.into_iter().enumerate() {
        b.graph_output(r, j as u32, None);
    }
    b.end_graph();
    b.finish().encode_words().expect("encodes")
}

pub fn tensor(elem: ElemType, shape: &[usize], values: &[i64]) -> TensorData {
    let bits: Vec<u64> = values.iter().map(|&v| v as u64).collect();
    TensorData::from_bits(elem, shape, &bits).expect("shape matches")
}

pub fn f32s(shape: &[usize], values: &[f32]) -> TensorData {
    let bits: Vec<u64> = values.iter().map(|v| u64::from(v.to_bits())).collect();
    TensorData::from_bits(ElemType::Fp32, shape, &bits).expect("shape matches")
}

pub fn outputs(o: Result<ExecOutcome, OracleError>) -> Vec<TensorData> {
    match o {
        Ok(ExecOutcome::Outputs(v)) => v,
        other => panic!("expected outputs, got {other:?}"),
    }
}

pub const NO_CONSTANTS: &BTreeMap<u32, TensorData> = &BTreeMap::new();

pub fn request<'a>(words: &'a [u32], inputs: &'a [TensorData]) -> ExecRequest<'a> {
    ExecRequest { module: words, entry_point: None, inputs, graph_constants: NO_CONSTANTS }
}

/// Small single-operator cases of `corpus/valid` (integer and float, no
/// graph constants) that both consumers run to outputs.
pub const CORPUS_CASES: &[&str] =
    &["op-abs-r1", "op-exp-r0", "op-sigmoid-r0", "op-tanh-r0", "op-matmul-r0", "op-conv2d-r0", "op-add-r0"];

/// The request of entry point 0 of `corpus/valid/STEM` (module, inputs and
/// graph constants as its manifest lists them).
pub fn corpus_case(stem: &str) -> spvgraph_oracle::oracle::OwnedExecRequest {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/valid");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{stem}.json"))).expect("manifest"))
            .expect("JSON");
    assert!(manifest["graph_constants"].as_object().is_none_or(|g| g.is_empty()), "{stem}: graph constants");
    let bytes = std::fs::read(dir.join(format!("{stem}.spv"))).expect("module");
    let module = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let ep = &manifest["entry_points"][0];
    let inputs = ep["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .map(|file| {
            let file = file.as_str().expect("a file name");
            let spec =
                manifest["inputs"].as_array().expect("inputs").iter().find(|i| i["file"] == file).expect("listed");
            let elem = ElemType::from_name(spec["elem"].as_str().expect("elem")).expect("an element type");
            TensorData::read_npy(&dir.join(file), elem).expect("an input")
        })
        .collect();
    spvgraph_oracle::oracle::OwnedExecRequest {
        module,
        entry_point: ep["name"].as_str().map(str::to_string),
        inputs,
        graph_constants: BTreeMap::new(),
    }
}

/// The outputs' element types, shapes and bits, to compare bit for bit.
pub fn bits(v: &[TensorData]) -> Vec<(ElemType, Vec<usize>, Vec<u64>)> {
    v.iter().map(|t| (t.elem(), t.shape().to_vec(), t.to_bits())).collect()
}

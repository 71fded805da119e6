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

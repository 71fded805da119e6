//! Candidates and the corpus format: reading a case's inputs through its
//! manifest, and writing a candidate as a case (`STEM.spv`, the manifest,
//! the `.npy` inputs named as in the corpus, optionally `.spvasm`/`.mlir`)
//! with `spvgraph_generator::files`, the one writer of that format.

use anyhow::{bail, Context};
use spirv::Decoration;
use spvgraph_generator::files::{write_case, Extras, Manifest};
use spvgraph_generator::{Case, CaseMeta, EntryPoint, InputTensor, InterfaceSlot};
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use spvgraph_reducer::{Candidate, InputKey};
use std::path::Path;

/// The graph exported by each graph entry point, in module order.
fn entry_graphs(m: &Module) -> Vec<Id> {
    m.insts
        .iter()
        .filter_map(|i| match i {
            Inst::GraphEntryPoint { graph, .. } => Some(*graph),
            _ => None,
        })
        .collect()
}

/// `module` with the input and graph-constant data the manifest at
/// `manifest` names (paths relative to the manifest's directory).
pub fn candidate_from_manifest(module: Module, manifest: &Path) -> anyhow::Result<Candidate> {
    let text = std::fs::read_to_string(manifest).with_context(|| format!("cannot read {}", manifest.display()))?;
    let man: Manifest =
        serde_json::from_str(&text).with_context(|| format!("{}: not a case manifest", manifest.display()))?;
    let dir = manifest.parent().unwrap_or(Path::new("."));
    let graphs = entry_graphs(&module);
    let mut c = Candidate::new(module);
    for rec in &man.inputs {
        let Some(&graph) = graphs.get(rec.entry_point) else {
            bail!(
                "{}: input {} names entry point {}, which the module lacks",
                manifest.display(),
                rec.file,
                rec.entry_point
            );
        };
        let path = dir.join(&rec.file);
        let data = TensorData::read_npy(&path, rec.elem).with_context(|| format!("{}", path.display()))?;
        c.inputs.entry(InputKey { graph, index: rec.index, element: rec.element }).or_insert(data);
    }
    let elems = graph_constant_elems(&c.module);
    for (id, file) in &man.graph_constants {
        let Some(&elem) = elems.get(id) else { continue };
        let path = dir.join(file);
        let data = TensorData::read_npy(&path, elem).with_context(|| format!("{}", path.display()))?;
        c.graph_constants.insert(*id, data);
    }
    Ok(c)
}

/// `module` with the input data and graph constants of the generated case
/// `case` it belongs to (a near-valid module with its base case's data).
pub fn candidate_from_case(module: Module, case: &Case) -> Candidate {
    let graphs: Vec<Id> = Analysis::new(&module).graphs.iter().map(|g| g.result).collect();
    let mut c = Candidate::new(module);
    for ep in &case.entry_points {
        let Some(&graph) = graphs.get(ep.graph) else { continue };
        for t in &ep.inputs {
            let key = InputKey { graph, index: t.slot.index, element: t.slot.element };
            c.inputs.entry(key).or_insert_with(|| t.data.clone());
        }
    }
    c.graph_constants = case.graph_constants.clone();
    c
}

fn graph_constant_elems(m: &Module) -> std::collections::BTreeMap<u32, ElemType> {
    let a = Analysis::new(m);
    m.insts
        .iter()
        .filter_map(|i| match i {
            Inst::GraphConstant { ty, graph_constant_id, .. } => Some((*graph_constant_id, a.tensor_type(*ty)?.elem?)),
            _ => None,
        })
        .collect()
}

/// One interface tensor of a graph: InputIndex/OutputIndex, ElementIndex,
/// element type and shape (`None` when unshaped).
type Port = (u32, Option<u32>, ElemType, Option<Vec<u32>>);

/// The tensors of an interface type list (tensor arrays expanded).
fn ports(a: &Analysis<'_>, types: &[Id]) -> Vec<Port> {
    let mut out = Vec::new();
    for (i, &t) in types.iter().enumerate() {
        let tensor = |id: Id| {
            a.tensor_type(id).and_then(|t| Some((t.elem?, t.shape.map(|s| s.iter().map(|&d| d as u32).collect()))))
        };
        match a.ty(t) {
            Some(Type::Tensor(_)) => {
                if let Some((elem, shape)) = tensor(t) {
                    out.push((i as u32, None, elem, shape));
                }
            }
            Some(Type::Array { element, length: Some(n) }) => {
                if let Some((elem, shape)) = tensor(element) {
                    for e in 0..n.min(1 << 16) as u32 {
                        out.push((i as u32, Some(e), elem, shape.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Adds zero data for every shaped graph input and graph constant the
/// candidate has no data for, so that a test can always run it.
pub fn fill_missing_data(c: &mut Candidate) {
    let mut missing = Vec::new();
    {
        let a = Analysis::new(&c.module);
        for g in &a.graphs {
            let Some(Type::Graph { inputs, .. }) = a.ty(g.ty) else { continue };
            for (index, element, elem, shape) in ports(&a, &inputs) {
                let key = InputKey { graph: g.result, index, element };
                if let (false, Some(shape)) = (c.inputs.contains_key(&key), shape) {
                    missing.push((key, elem, shape));
                }
            }
        }
    }
    for (key, elem, shape) in missing {
        let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
        c.inputs.insert(key, TensorData::zeros(elem, &dims));
    }
    let a = Analysis::new(&c.module);
    for inst in &c.module.insts {
        if let Inst::GraphConstant { ty, graph_constant_id, .. } = inst {
            if c.graph_constants.contains_key(graph_constant_id) {
                continue;
            }
            let Some(t) = a.tensor_type(*ty) else { continue };
            if let (Some(elem), Some(shape)) = (t.elem, t.shape) {
                let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
                c.graph_constants.insert(*graph_constant_id, TensorData::zeros(elem, &dims));
            }
        }
    }
}

/// A candidate as a generated case, for the corpus writer: every entry
/// point with its interface (bindings from the module, data from the
/// candidate, zeros where it has none).
pub fn candidate_to_case(c: &Candidate) -> Case {
    let a = Analysis::new(&c.module);
    let mut entry_points = Vec::new();
    for inst in &c.module.insts {
        let Inst::GraphEntryPoint { graph, name, interface } = inst else { continue };
        let Some(gi) = a.graphs.iter().position(|g| g.result == *graph) else { continue };
        let Some(Type::Graph { inputs, outputs }) = a.graph(*graph).and_then(|g| a.ty(g.ty)) else { continue };
        let binding = |pos: usize| {
            let var = interface.get(pos).copied();
            let dec = |d| var.and_then(|v| a.decoration(v, d)).and_then(|l| l.first().copied()).unwrap_or(0);
            (dec(Decoration::DescriptorSet), dec(Decoration::Binding))
        };
        let slot = |(index, element, elem, shape): Port, pos: usize| {
            let (descriptor_set, binding) = binding(pos);
            InterfaceSlot {
                index,
                element,
                elem,
                shape: shape.unwrap_or_default(),
                descriptor_set,
                binding,
                used: true,
            }
        };
        let ins: Vec<InputTensor> = ports(&a, &inputs)
            .into_iter()
            .map(|p| {
                let key = InputKey { graph: *graph, index: p.0, element: p.1 };
                let s = slot(p, key.index as usize);
                let dims: Vec<usize> = s.shape.iter().map(|&d| d as usize).collect();
                let data = c.inputs.get(&key).cloned().unwrap_or_else(|| TensorData::zeros(s.elem, &dims));
                InputTensor { slot: s, data }
            })
            .collect();
        let outs: Vec<InterfaceSlot> =
            ports(&a, &outputs).into_iter().map(|p| slot(p.clone(), inputs.len() + p.0 as usize)).collect();
        entry_points.push(EntryPoint { name: name.clone(), graph: gi, inputs: ins, outputs: outs });
    }
    let ops = a.tosa_ops().into_iter().collect();
    let nodes = c.module.insts.iter().filter(|i| matches!(i, Inst::Tosa { .. })).count();
    Case {
        module: c.module.clone(),
        entry_points,
        graph_constants: c.graph_constants.clone(),
        meta: CaseMeta { ops, graphs: a.graphs.len(), nodes, ..CaseMeta::default() },
    }
}

/// Writes a candidate into `dir` as case `stem`.
pub fn write_candidate(dir: &Path, stem: &str, c: &Candidate, extras: &Extras) -> anyhow::Result<Manifest> {
    Ok(write_case(dir, stem, &candidate_to_case(c), extras)?)
}

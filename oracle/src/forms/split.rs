//! The graph split in two through its intermediate values: the first graph
//! computes a prefix of the operators and outputs every value the rest
//! needs; the second takes the case's inputs and those values as inputs
//! and computes the rest and the case's outputs.

use super::edit::{self, Case, Made, MadeStage};
use super::{Feed, FormError};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::decls;
use spvgraph_ir::ids;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use std::collections::{HashMap, HashSet};

/// The graph being split.
struct Parts {
    /// The `OpGraphInputARM`s: result, type, InputIndex constant.
    inputs: Vec<(Id, Id, Id)>,
    /// The body.
    body: Vec<Inst>,
    /// The `OpGraphSetOutputARM`s.
    outputs: Vec<Inst>,
}

fn parts(m: &Module, g: Id) -> Result<Parts, FormError> {
    let a = Analysis::new(m);
    let view = a.graph(g).ok_or_else(|| FormError::BadCase(format!("no graph {g}")))?;
    let mut inputs = Vec::new();
    for &k in &view.inputs {
        match m.insts.get(k) {
            Some(Inst::GraphInput { ty, result, input_index, element_index: None }) => {
                inputs.push((*result, *ty, *input_index))
            }
            _ => return Err(FormError::NotApplicable("the graph has tensor-array inputs".into())),
        }
    }
    let outputs: Vec<Inst> = view.outputs.iter().filter_map(|&k| m.insts.get(k).cloned()).collect();
    if outputs.iter().any(|o| matches!(o, Inst::GraphSetOutput { element_index: Some(_), .. })) {
        return Err(FormError::NotApplicable("the graph has tensor-array outputs".into()));
    }
    let body =
        view.body.iter().filter_map(|&k| m.insts.get(k).cloned()).filter(|i| !matches!(i, Inst::GraphEnd)).collect();
    Ok(Parts { inputs, body, outputs })
}

/// The values defined in `body[..p]` that `body[p..]` or the outputs read,
/// in definition order.
fn cut_values(parts: &Parts, p: usize) -> Vec<Id> {
    let defined: Vec<Id> = parts.body[..p].iter().filter_map(Inst::result_id).collect();
    let mut read: HashSet<Id> = HashSet::new();
    for inst in parts.body[p..].iter().chain(&parts.outputs) {
        ids::for_each_id(inst, |id| {
            read.insert(*id);
        });
    }
    defined.into_iter().filter(|id| read.contains(id)).collect()
}

/// Where to cut: the position nearest the middle operator at which both
/// halves hold an operator and every value crossing the cut is a shaped tensor.
fn choose_cut(m: &Module, parts: &Parts) -> Option<(usize, Vec<(Id, Id)>)> {
    let a = Analysis::new(m);
    let ops: Vec<usize> =
        parts.body.iter().enumerate().filter(|(_, i)| matches!(i, Inst::Tosa { .. })).map(|(k, _)| k).collect();
    if ops.len() < 2 {
        return None;
    }
    let middle = ops.len() / 2;
    let mut order: Vec<usize> = (1..ops.len()).collect();
    order.sort_by_key(|&k| k.abs_diff(middle));
    for k in order {
        let p = ops[k];
        let cut = cut_values(parts, p);
        let typed: Option<Vec<(Id, Id)>> = cut
            .iter()
            .map(|&id| {
                let ty = a.type_of(id)?;
                edit::tensor_of(&a, ty)?;
                Some((id, ty))
            })
            .collect();
        if let Some(typed) = typed.filter(|t| !t.is_empty()) {
            return Some((p, typed));
        }
    }
    None
}

/// [`super::Form::SplitEntryPoints`] (`modules` false) and
/// [`super::Form::SplitModules`] (`modules` true).
pub(super) fn split(mut case: Case, modules: bool) -> Result<Made, FormError> {
    let g = edit::graph_of(&case.module, &case.entry)?;
    let dead = edit::dead_before(&case.module);
    // Debug instructions describe the graph as a whole; the two halves go without.
    let entry = case.entry.clone();
    case.module.insts.retain(|i| {
        !matches!(i, Inst::GraphDebug { .. }) && !matches!(i, Inst::GraphEntryPoint { name, .. } if *name != entry)
    });
    edit::tidy(&mut case.module, &dead);
    let parts = parts(&case.module, g)?;
    let (p, cut) = choose_cut(&case.module, &parts)
        .ok_or_else(|| FormError::NotApplicable("no cut between two operators passes only shaped tensors".into()))?;
    let (ins, outs) = edit::io_types(&case.module, g)?;
    let n_in = ins.len();
    let cut_types: Vec<Id> = cut.iter().map(|(_, ty)| *ty).collect();
    let m = &mut case.module;
    // Types, interface variables and index constants first: they go
    // before the graphs.
    let ty_a = decls::graph_type(m, &ins, &cut_types);
    let mut ins_b = ins.clone();
    ins_b.extend(&cut_types);
    let ty_b = decls::graph_type(m, &ins_b, &outs);
    let vars_a: Vec<Id> = ins.iter().chain(&cut_types).map(|&t| decls::interface_variable(m, t)).collect();
    let vars_cut_b: Vec<Id> = cut_types.iter().map(|&t| decls::interface_variable(m, t)).collect();
    let index: Vec<Id> = (0..n_in + cut.len()).map(|k| decls::const_u32(m, k as u32)).collect();
    let g_a = decls::fresh_id(m);
    // Graph A: the inputs, the prefix, the cut values as outputs.
    let mut graph_a = vec![Inst::Graph { ty: ty_a, result: g_a }];
    graph_a.extend(parts.inputs.iter().map(|&(result, ty, input_index)| Inst::GraphInput {
        ty,
        result,
        input_index,
        element_index: None,
    }));
    graph_a.extend(parts.body[..p].iter().cloned());
    graph_a.extend(cut.iter().enumerate().map(|(k, (value, _))| Inst::GraphSetOutput {
        value: *value,
        output_index: index[k],
        element_index: None,
    }));
    graph_a.push(Inst::GraphEnd);
    // Graph B: fresh inputs for the case's inputs and the cut values.
    let mut map: HashMap<Id, Id> = HashMap::new();
    let mut graph_b = vec![Inst::Graph { ty: ty_b, result: g }];
    for &(result, ty, input_index) in &parts.inputs {
        let fresh = decls::fresh_id(m);
        map.insert(result, fresh);
        graph_b.push(Inst::GraphInput { ty, result: fresh, input_index, element_index: None });
    }
    for (k, (value, ty)) in cut.iter().enumerate() {
        let fresh = decls::fresh_id(m);
        map.insert(*value, fresh);
        graph_b.push(Inst::GraphInput { ty: *ty, result: fresh, input_index: index[n_in + k], element_index: None });
    }
    for inst in parts.body[p..].iter().chain(&parts.outputs) {
        let mut inst = inst.clone();
        ids::replace_uses(&mut inst, &map);
        graph_b.push(inst);
    }
    graph_b.push(Inst::GraphEnd);
    let (begin, end) = edit::span(m, g)?;
    let mut both = graph_a;
    both.extend(graph_b);
    m.insts.splice(begin..=end, both);
    // Entry points: the case's name runs B (its variables for the case's
    // inputs and outputs, new ones for the cut); a new one runs A.
    let first = edit::fresh_entry_name(m, &format!("{entry}_first"));
    for inst in &mut m.insts {
        if let Inst::GraphEntryPoint { name, interface, .. } = inst {
            if *name == entry {
                let at = n_in.min(interface.len());
                interface.splice(at..at, vars_cut_b.iter().copied());
            }
        }
    }
    let at = m
        .insts
        .iter()
        .position(|i| matches!(i, Inst::GraphEntryPoint { .. }))
        .ok_or_else(|| FormError::BadCase("no graph entry point".into()))?;
    m.insts.insert(at, Inst::GraphEntryPoint { graph: g_a, name: first.clone(), interface: vars_a });
    // Stage 1 reads the cut values from stage 0's outputs.
    let placeholders: Vec<TensorData> = {
        let a = Analysis::new(m);
        cut.iter()
            .map(|(_, ty)| {
                let (elem, shape) = edit::tensor_of(&a, *ty)?;
                Some(TensorData::zeros(elem, &shape.iter().map(|&d| d as usize).collect::<Vec<_>>()))
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| FormError::BadCase("a cut value has no shaped type".into()))?
    };
    let flat_inputs = case.inputs.len();
    let fed: Vec<Feed> = (0..cut.len()).map(|k| Feed { input: flat_inputs + k, stage: 0, output: k }).collect();
    let mut first_case = Case {
        module: case.module.clone(),
        entry: first.clone(),
        inputs: case.inputs.clone(),
        graph_constants: case.graph_constants.clone(),
    };
    let mut second_case = case;
    second_case.inputs.extend(placeholders);
    if modules {
        only_entry(&mut first_case.module, &first, g);
        only_entry(&mut second_case.module, &entry, g_a);
        super::constants::keep_declared_graph_constants(&mut first_case);
        super::constants::keep_declared_graph_constants(&mut second_case);
    }
    let outputs = (0..outs.len()).map(|j| (1, j)).collect();
    Ok(Made {
        stages: vec![MadeStage { case: first_case, fed: Vec::new() }, MadeStage { case: second_case, fed }],
        outputs: Some(outputs),
    })
}

/// Removes graph `drop` and every entry point but `keep` from `m`, with
/// what only they used.
fn only_entry(m: &mut Module, keep: &str, drop: Id) {
    let dead = edit::dead_before(m);
    m.insts.retain(|i| !matches!(i, Inst::GraphEntryPoint { name, .. } if name != keep));
    if let Ok((begin, end)) = edit::span(m, drop) {
        m.insts.drain(begin..=end);
    }
    edit::tidy(m, &dead);
}

//! Editing a graph's interface: removing and adding inputs and outputs
//! keeps the graph type, the InputIndex/OutputIndex constants, every entry
//! point's interface list and the candidate's input data consistent; and
//! finishing an edit removes what it left unused.

use super::candidate::{Candidate, InputKey};
use crate::analysis::{Analysis, Type};
use crate::decls;
use crate::ids;
use crate::inst::{Id, Inst};
use crate::tensor::TensorData;
use crate::Module;
use std::collections::{BTreeMap, HashSet};

/// The input and output types of graph `g` (from its `OpTypeGraphARM`).
pub fn io_types(m: &Module, g: Id) -> Option<(Vec<Id>, Vec<Id>)> {
    let a = Analysis::new(m);
    let view = a.graph(g)?;
    match a.ty(view.ty)? {
        Type::Graph { inputs, outputs } => Some((inputs, outputs)),
        _ => None,
    }
}

/// Points `OpGraphARM g` at a graph type with these inputs and outputs.
pub fn set_io_types(m: &mut Module, g: Id, inputs: &[Id], outputs: &[Id]) {
    let ty = decls::graph_type(m, inputs, outputs);
    for inst in &mut m.insts {
        if let Inst::Graph { ty: t, result } = inst {
            if *result == g {
                *t = ty;
            }
        }
    }
}

/// Index range `begin..=end` of graph `g` (end = last instruction when unclosed).
pub fn span(m: &Module, g: Id) -> Option<(usize, usize)> {
    let a = Analysis::new(m);
    let v = a.graph(g)?;
    Some((v.begin, v.end.unwrap_or(m.insts.len().saturating_sub(1))))
}

/// The graph whose body holds instruction `index`.
pub fn graph_at(m: &Module, index: usize) -> Option<Id> {
    let a = Analysis::new(m);
    a.graphs.iter().find(|v| v.begin <= index && v.end.is_none_or(|e| index <= e)).map(|v| v.result)
}

/// Reads an index constant.
fn index_of(a: &Analysis<'_>, id: Id) -> Option<u32> {
    a.const_uint(id).and_then(|v| u32::try_from(v).ok())
}

/// Removes input `k` of graph `g`, whose `OpGraphInputARM`s must already be
/// gone: graph type, later indices, entry-point interfaces and data follow.
pub fn remove_input(c: &mut Candidate, g: Id, k: u32) -> Option<()> {
    let (mut inputs, outputs) = io_types(&c.module, g)?;
    if k as usize >= inputs.len() {
        return None;
    }
    inputs.remove(k as usize);
    // Index constants first (they only add declarations, which shift
    // instructions after the declaration section by a fixed amount).
    shift_indices_stable(&mut c.module, g, k, false)?;
    set_io_types(&mut c.module, g, &inputs, &outputs);
    for inst in &mut c.module.insts {
        if let Inst::GraphEntryPoint { graph, interface, .. } = inst {
            if *graph == g && (k as usize) < interface.len() {
                interface.remove(k as usize);
            }
        }
    }
    let old = std::mem::take(&mut c.inputs);
    c.inputs = old
        .into_iter()
        .filter(|(key, _)| !(key.graph == g && key.index == k))
        .map(
            |(key, t)| {
                if key.graph == g && key.index > k {
                    (InputKey { index: key.index - 1, ..key }, t)
                } else {
                    (key, t)
                }
            },
        )
        .collect();
    Some(())
}

/// Removes output `k` of graph `g`, whose `OpGraphSetOutputARM`s must
/// already be gone.
pub fn remove_output(c: &mut Candidate, g: Id, k: u32) -> Option<()> {
    let (inputs, mut outputs) = io_types(&c.module, g)?;
    if k as usize >= outputs.len() {
        return None;
    }
    outputs.remove(k as usize);
    shift_indices_stable(&mut c.module, g, k, true)?;
    set_io_types(&mut c.module, g, &inputs, &outputs);
    let pos = inputs.len() + k as usize;
    for inst in &mut c.module.insts {
        if let Inst::GraphEntryPoint { graph, interface, .. } = inst {
            if *graph == g && pos < interface.len() {
                interface.remove(pos);
            }
        }
    }
    Some(())
}

/// Rewrites graph `g`'s InputIndex (or OutputIndex) constants above
/// `removed` to one less. Every constant needed is declared first (which
/// moves the graph), then the instructions are rewritten by a fresh scan.
fn shift_indices_stable(m: &mut Module, g: Id, removed: u32, outputs: bool) -> Option<()> {
    let (begin, end) = span(m, g)?;
    let mut wanted: Vec<u32> = Vec::new();
    {
        let a = Analysis::new(m);
        for i in begin..=end {
            let idx = match m.insts.get(i) {
                Some(Inst::GraphInput { input_index, .. }) if !outputs => *input_index,
                Some(Inst::GraphSetOutput { output_index, .. }) if outputs => *output_index,
                _ => continue,
            };
            let v = index_of(&a, idx)?;
            if v > removed {
                wanted.push(v - 1);
            }
        }
    }
    let consts: BTreeMap<u32, Id> = wanted.iter().map(|&v| (v, decls::const_u32(m, v))).collect();
    let (begin, end) = span(m, g)?;
    let values: Vec<Option<u32>> = {
        let a = Analysis::new(m);
        (begin..=end)
            .map(|i| match m.insts.get(i) {
                Some(Inst::GraphInput { input_index, .. }) if !outputs => index_of(&a, *input_index),
                Some(Inst::GraphSetOutput { output_index, .. }) if outputs => index_of(&a, *output_index),
                _ => None,
            })
            .collect()
    };
    for (off, v) in values.into_iter().enumerate() {
        let Some(v) = v.filter(|&v| v > removed) else { continue };
        let c = *consts.get(&(v - 1))?;
        match m.insts.get_mut(begin + off) {
            Some(Inst::GraphInput { input_index, .. }) => *input_index = c,
            Some(Inst::GraphSetOutput { output_index, .. }) => *output_index = c,
            _ => return None,
        }
    }
    Some(())
}

/// Adds a graph input of tensor type `ty` to graph `g` (last InputIndex),
/// with an interface variable in every entry point of `g` and zero data.
/// Returns the new input's value id.
pub fn add_input(c: &mut Candidate, g: Id, ty: Id) -> Option<Id> {
    let (mut inputs, outputs) = io_types(&c.module, g)?;
    let (elem, shape) = {
        let a = Analysis::new(&c.module);
        let t = a.tensor_type(ty)?;
        (t.elem?, t.shape?)
    };
    let k = inputs.len() as u32;
    inputs.push(ty);
    let index = decls::const_u32(&mut c.module, k);
    set_io_types(&mut c.module, g, &inputs, &outputs);
    let eps: Vec<usize> = c
        .module
        .insts
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i, Inst::GraphEntryPoint { graph, .. } if *graph == g))
        .map(|(p, _)| p)
        .collect();
    let mut vars = Vec::new();
    for _ in &eps {
        vars.push(decls::interface_variable(&mut c.module, ty));
    }
    // Entry points moved by the declarations added: find them again.
    let mut n = 0;
    for inst in &mut c.module.insts {
        if let Inst::GraphEntryPoint { graph, interface, .. } = inst {
            if *graph == g {
                let pos = (k as usize).min(interface.len());
                interface.insert(pos, *vars.get(n)?);
                n += 1;
            }
        }
    }
    let (begin, end) = span(&c.module, g)?;
    let at = (begin + 1..=end)
        .rev()
        .find(|&i| matches!(c.module.insts.get(i), Some(Inst::GraphInput { .. })))
        .map_or(begin + 1, |i| i + 1);
    let result = decls::fresh_id(&mut c.module);
    c.module.insts.insert(at, Inst::GraphInput { ty, result, input_index: index, element_index: None });
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    c.inputs.insert(InputKey { graph: g, index: k, element: None }, TensorData::zeros(elem, &dims));
    Some(result)
}

/// What an edit starts from, so that finishing it removes only what the
/// edit itself left unused.
pub struct Baseline {
    dead_decls: HashSet<Id>,
    used: HashSet<Id>,
    used_inputs: HashSet<(Id, u32)>,
}

impl Baseline {
    /// Records the candidate before an edit.
    pub fn of(c: &Candidate) -> Baseline {
        let counts = ids::use_counts(&c.module.insts);
        let used: HashSet<Id> = counts.keys().copied().collect();
        Baseline {
            dead_decls: ids::dead_declarations(&c.module.insts),
            used_inputs: used_inputs(&c.module, &used),
            used,
        }
    }

    /// Counts `ids` as unused before the edit, so that the edit does not
    /// remove them when it leaves them unused.
    pub fn keep(&mut self, ids: &HashSet<Id>) {
        self.used.retain(|id| !ids.contains(id));
    }

    /// Declarations that were dead before the edit.
    pub fn dead_decls(&self) -> &HashSet<Id> {
        &self.dead_decls
    }
}

/// `(graph, InputIndex)` of every graph input some instruction reads.
fn used_inputs(m: &Module, used: &HashSet<Id>) -> HashSet<(Id, u32)> {
    let a = Analysis::new(m);
    let mut out = HashSet::new();
    for v in &a.graphs {
        for &i in &v.inputs {
            if let Some(Inst::GraphInput { result, input_index, .. }) = m.insts.get(i) {
                if used.contains(result) {
                    if let Some(k) = index_of(&a, *input_index) {
                        out.insert((v.result, k));
                    }
                }
            }
        }
    }
    out
}

/// Finishes an edit: removes graph nodes whose results lost their last
/// use, graph inputs no longer read (that were read before), and the
/// declarations the edit left dead.
pub fn finish(c: &mut Candidate, base: &Baseline) -> Option<()> {
    loop {
        let counts = ids::use_counts(&c.module.insts);
        let before = c.module.insts.len();
        c.module.insts.retain(|inst| match inst {
            Inst::Tosa { result, .. } | Inst::CompositeExtract { result, .. } => {
                counts.contains_key(result) || !base.used.contains(result)
            }
            _ => true,
        });
        if c.module.insts.len() == before {
            break;
        }
    }
    ids::drop_dangling(&mut c.module.insts);
    remove_unread_inputs(c, |g, k, _| base.used_inputs.contains(&(g, k)))?;
    ids::tidy(&mut c.module.insts, &base.dead_decls);
    ids::sort_declarations(&mut c.module.insts);
    drop_unbound_graph_constants(c);
    Some(())
}

/// Forgets the data of graph constants no longer declared.
pub fn drop_unbound_graph_constants(c: &mut Candidate) {
    let ids = c.module.graph_constant_ids();
    c.graph_constants.retain(|k, _| ids.contains(k));
}

/// Removes every graph input that nothing reads and for which `pick(graph,
/// InputIndex, position)` holds (with its `OpGraphInputARM`s).
pub fn remove_unread_inputs(c: &mut Candidate, pick: impl Fn(Id, u32, usize) -> bool) -> Option<()> {
    let counts = ids::use_counts(&c.module.insts);
    let mut doomed: Vec<(Id, u32)> = Vec::new();
    {
        let a = Analysis::new(&c.module);
        for v in &a.graphs {
            let Some(Type::Graph { inputs, .. }) = a.ty(v.ty) else { continue };
            let mut read: HashSet<u32> = HashSet::new();
            for &i in &v.inputs {
                if let Some(Inst::GraphInput { result, input_index, .. }) = c.module.insts.get(i) {
                    if counts.contains_key(result) {
                        read.insert(index_of(&a, *input_index)?);
                    }
                }
            }
            for k in 0..inputs.len() as u32 {
                if !read.contains(&k) && pick(v.result, k, doomed.len()) {
                    doomed.push((v.result, k));
                }
            }
        }
    }
    // Highest index first, so the lower ones keep their numbers.
    doomed.sort_by_key(|d| std::cmp::Reverse(d.1));
    for (g, k) in doomed {
        let drop_reads: Vec<usize> = {
            let a = Analysis::new(&c.module);
            let v = a.graph(g)?;
            v.inputs
                .iter()
                .copied()
                .filter(|&i| {
                    matches!(c.module.insts.get(i), Some(Inst::GraphInput { input_index, .. }) if index_of(&a, *input_index) == Some(k))
                })
                .collect()
        };
        for i in drop_reads.into_iter().rev() {
            c.module.insts.remove(i);
        }
        ids::drop_dangling(&mut c.module.insts);
        remove_input(c, g, k)?;
    }
    Some(())
}

/// Every graph input that nothing reads, as `(graph, InputIndex)`.
pub fn unread_inputs(c: &Candidate) -> Vec<(Id, u32)> {
    let counts = ids::use_counts(&c.module.insts);
    let a = Analysis::new(&c.module);
    let mut out = Vec::new();
    for v in &a.graphs {
        let Some(Type::Graph { inputs, .. }) = a.ty(v.ty) else { continue };
        let read: HashSet<u32> = v
            .inputs
            .iter()
            .filter_map(|&i| match c.module.insts.get(i) {
                Some(Inst::GraphInput { result, input_index, .. }) if counts.contains_key(result) => {
                    index_of(&a, *input_index)
                }
                _ => None,
            })
            .collect();
        out.extend((0..inputs.len() as u32).filter(|k| !read.contains(k)).map(|k| (v.result, k)));
    }
    out
}

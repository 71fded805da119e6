//! Forms of the graph's interface: one entry point or several, a value
//! set once per value, tensor arrays as one interface per element.

use super::edit::{self, Case, Made};
use super::FormError;
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::decls;
use spvgraph_ir::inst::{Id, Inst};
use std::collections::{BTreeMap, HashMap};

/// [`super::Form::SingleEntryPoint`].
pub(super) fn single_entry_point(mut case: Case) -> Result<Made, FormError> {
    let count = case.module.insts.iter().filter(|i| matches!(i, Inst::GraphEntryPoint { .. })).count();
    if count <= 1 {
        return Err(FormError::NothingToChange);
    }
    edit::graph_of(&case.module, &case.entry)?;
    let dead = edit::dead_before(&case.module);
    let entry = case.entry.clone();
    case.module.insts.retain(|i| !matches!(i, Inst::GraphEntryPoint { name, .. } if *name != entry));
    edit::tidy(&mut case.module, &dead);
    Made::one(case)
}

/// [`super::Form::ExtraEntryPoint`]: declared first, so that a consumer
/// that takes the first entry point whatever the name meets it.
pub(super) fn extra_entry_point(mut case: Case) -> Result<Made, FormError> {
    let g = edit::graph_of(&case.module, &case.entry)?;
    let (ins, outs) = edit::io_types(&case.module, g)?;
    let interface: Vec<Id> =
        ins.iter().chain(&outs).map(|&ty| decls::interface_variable(&mut case.module, ty)).collect();
    let name = edit::fresh_entry_name(&case.module, &format!("{}_alias", case.entry));
    let at = case
        .module
        .insts
        .iter()
        .position(|i| matches!(i, Inst::GraphEntryPoint { .. }))
        .ok_or_else(|| FormError::BadCase("no graph entry point".into()))?;
    case.module.insts.insert(at, Inst::GraphEntryPoint { graph: g, name, interface });
    Made::one(case)
}

/// The graph's `OpGraphSetOutputARM`s: (value, OutputIndex, ElementIndex).
fn set_outputs(a: &Analysis<'_>, g: Id) -> Vec<(Id, Option<u64>, Option<Id>)> {
    let Some(view) = a.graph(g) else { return Vec::new() };
    view.outputs
        .iter()
        .filter_map(|&k| match a.module.insts.get(k) {
            Some(Inst::GraphSetOutput { value, output_index, element_index }) => {
                Some((*value, a.const_uint(*output_index), *element_index))
            }
            _ => None,
        })
        .collect()
}

/// Rewrites the interface list of every entry point of graph `g` with `f`.
fn each_entry_point(case: &mut Case, g: Id, mut f: impl FnMut(&mut Vec<Id>)) {
    for inst in &mut case.module.insts {
        if let Inst::GraphEntryPoint { graph, interface, .. } = inst {
            if *graph == g {
                f(interface);
            }
        }
    }
}

/// [`super::Form::DistinctOutputs`]: the first output of each value stays
/// (renumbered in order); the later ones are dropped from the graph and
/// taken from it.
pub(super) fn distinct_outputs(mut case: Case) -> Result<Made, FormError> {
    let g = edit::graph_of(&case.module, &case.entry)?;
    let (ins, outs) = edit::io_types(&case.module, g)?;
    let (by_index, first_of) = {
        let a = Analysis::new(&case.module);
        let sets = set_outputs(&a, g);
        if sets.iter().any(|(_, _, e)| e.is_some()) {
            return Err(FormError::NotApplicable("the graph has tensor-array outputs".into()));
        }
        let mut by_index: BTreeMap<u64, Id> = BTreeMap::new();
        for (value, index, _) in &sets {
            let index = index.ok_or_else(|| FormError::BadCase("an OutputIndex is not a constant".into()))?;
            by_index.insert(index, *value);
        }
        if by_index.len() != outs.len() {
            return Err(FormError::BadCase("the graph does not set each of its outputs once".into()));
        }
        let mut first_of: HashMap<Id, u64> = HashMap::new();
        for (&index, &value) in &by_index {
            first_of.entry(value).or_insert(index);
        }
        (by_index, first_of)
    };
    if first_of.len() == by_index.len() {
        return Err(FormError::NothingToChange);
    }
    // The outputs kept, renumbered in order.
    let kept: Vec<u64> = by_index.iter().filter(|(i, v)| first_of.get(v) == Some(i)).map(|(i, _)| *i).collect();
    let new_index: HashMap<u64, usize> = kept.iter().enumerate().map(|(n, &i)| (i, n)).collect();
    let map: Vec<(usize, usize)> = by_index
        .values()
        .map(|v| first_of.get(v).and_then(|i| new_index.get(i)).map(|&n| (0, n)))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| FormError::BadCase("an output has no kept counterpart".into()))?;
    let new_outs: Vec<Id> = kept.iter().filter_map(|&i| outs.get(i as usize).copied()).collect();
    let dead = edit::dead_before(&case.module);
    edit::set_io_types(&mut case.module, g, &ins, &new_outs);
    let n_in = ins.len();
    each_entry_point(&mut case, g, |interface| {
        let vars: Vec<Id> = interface.clone();
        let outputs: Vec<Id> = kept.iter().filter_map(|&i| vars.get(n_in + i as usize).copied()).collect();
        interface.truncate(n_in);
        interface.extend(outputs);
    });
    let index_ids: HashMap<u64, Id> =
        kept.iter().map(|&i| (i, decls::const_u32(&mut case.module, new_index[&i] as u32))).collect();
    let (begin, end) = edit::span(&case.module, g)?;
    let a_values: HashMap<Id, u64> = {
        let a = Analysis::new(&case.module);
        (begin..end)
            .filter_map(|k| match case.module.insts.get(k) {
                Some(Inst::GraphSetOutput { output_index, .. }) => Some((*output_index, a.const_uint(*output_index)?)),
                _ => None,
            })
            .collect()
    };
    let mut k = begin;
    let mut end = end;
    while k < end {
        if let Some(Inst::GraphSetOutput { output_index, .. }) = case.module.insts.get_mut(k) {
            let index = a_values.get(output_index).copied();
            match index.and_then(|i| index_ids.get(&i)) {
                Some(&to) => *output_index = to,
                None => {
                    case.module.insts.remove(k);
                    end -= 1;
                    continue;
                }
            }
        }
        k += 1;
    }
    edit::tidy(&mut case.module, &dead);
    let mut made = Made::one(case)?;
    made.outputs = Some(map);
    Ok(made)
}

/// An interface port: its type, and the element type and length when it is
/// an array of tensors.
fn port(a: &Analysis<'_>, ty: Id) -> Result<Option<(Id, u64)>, FormError> {
    match a.ty(ty) {
        Some(Type::Array { element, length: Some(n) }) => Ok(Some((element, n))),
        Some(Type::Array { length: None, .. } | Type::RuntimeArray { .. }) => {
            Err(FormError::NotApplicable("a tensor array of unknown length".into()))
        }
        _ => Ok(None),
    }
}

/// An interface type, with its element type and length when it is an array.
type PortType = (Id, Option<(Id, u64)>);

/// The elements of each tensor-array input port that the graph reads
/// (`OpGraphInputARM` with that ElementIndex), by port.
fn read_elements(a: &Analysis<'_>, g: Id, in_ports: &[PortType]) -> Result<Vec<Vec<bool>>, FormError> {
    let view = a.graph(g).ok_or_else(|| FormError::BadCase("no graph".into()))?;
    let mut read: Vec<Vec<bool>> =
        in_ports.iter().map(|(_, p)| p.map_or_else(Vec::new, |(_, n)| vec![false; n as usize])).collect();
    for &k in &view.inputs {
        let Some(Inst::GraphInput { input_index, element_index: Some(e), .. }) = a.module.insts.get(k) else {
            continue;
        };
        let (Some(i), Some(e)) = (a.const_uint(*input_index), a.const_uint(*e)) else {
            return Err(FormError::BadCase("an InputIndex or ElementIndex is not a constant".into()));
        };
        if let Some(slot) = read.get_mut(i as usize).and_then(|r| r.get_mut(e as usize)) {
            *slot = true;
        }
    }
    Ok(read)
}

/// [`super::Form::ArrayElements`]: every tensor-array element becomes an
/// interface of its own, in the same flat order (arrays in ElementIndex
/// order). An input element the graph does not read is left out with its
/// request input: as an unread graph input of its own it would be a
/// construct of its own (the emulation layer answers any graph with an
/// unread input with zeros, `emulation-layer-unread-input-zeros`), where
/// the array element it was is simply not bound.
pub(super) fn array_elements(mut case: Case) -> Result<Made, FormError> {
    let g = edit::graph_of(&case.module, &case.entry)?;
    let (ins, outs) = edit::io_types(&case.module, g)?;
    let (in_ports, out_ports, read) = {
        let a = Analysis::new(&case.module);
        let ports =
            |tys: &[Id]| -> Result<Vec<PortType>, FormError> { tys.iter().map(|&t| Ok((t, port(&a, t)?))).collect() };
        let (in_ports, out_ports) = (ports(&ins)?, ports(&outs)?);
        if in_ports.iter().chain(&out_ports).all(|(_, p)| p.is_none()) {
            return Err(FormError::NothingToChange);
        }
        let elements: u64 = in_ports.iter().chain(&out_ports).map(|(_, p)| p.map_or(1, |(_, n)| n)).sum();
        if elements > crate::exec::MAX_ARRAY_PORTS {
            return Err(FormError::NotApplicable("too many array elements".into()));
        }
        let read = read_elements(&a, g, &in_ports)?;
        (in_ports, out_ports, read)
    };
    // Each flat input kept (in flat order) and its new position.
    let mut keep_input: Vec<bool> = Vec::new();
    for (k, (_, p)) in in_ports.iter().enumerate() {
        match p {
            Some(_) => keep_input.extend(read.get(k).into_iter().flatten().copied()),
            None => keep_input.push(true),
        }
    }
    if !keep_input.contains(&true) {
        return Err(FormError::NotApplicable("the graph reads no input".into()));
    }
    if case.inputs.len() != keep_input.len() {
        return Err(FormError::BadCase(format!(
            "the request has {} inputs where the interface has {}",
            case.inputs.len(),
            keep_input.len()
        )));
    }
    // Per port: its first flat position; the flat types kept.
    let flat = |ports: &[PortType], keep: Option<&[bool]>| -> (Vec<Id>, Vec<u64>) {
        let mut types = Vec::new();
        let mut offsets = Vec::new();
        let mut position = 0usize;
        for (ty, p) in ports {
            offsets.push(position as u64);
            let (element, n) = p.map_or((*ty, 1), |(e, n)| (e, n));
            for _ in 0..n {
                if keep.and_then(|k| k.get(position)).copied().unwrap_or(true) {
                    types.push(element);
                }
                position += 1;
            }
        }
        (types, offsets)
    };
    let (new_ins, in_offsets) = flat(&in_ports, Some(&keep_input));
    let (new_outs, out_offsets) = flat(&out_ports, None);
    // Old flat input position -> new one.
    let new_input: Vec<Option<u64>> = keep_input
        .iter()
        .scan(0u64, |next, &kept| {
            Some(kept.then(|| {
                *next += 1;
                *next - 1
            }))
        })
        .collect();
    let dead = edit::dead_before(&case.module);
    // The new index of every input and output instruction.
    let reindex: HashMap<Port, u32> = {
        let a = Analysis::new(&case.module);
        let view = a.graph(g).ok_or_else(|| FormError::BadCase("no graph".into()))?;
        let mut out = HashMap::new();
        for &k in view.inputs.iter().chain(&view.outputs) {
            let (key, index, element, offsets, ports, is_input) = match a.module.insts.get(k) {
                Some(Inst::GraphInput { result, input_index, element_index, .. }) => {
                    (Port::Input(*result), *input_index, *element_index, &in_offsets, &in_ports, true)
                }
                Some(Inst::GraphSetOutput { value, output_index, element_index }) => (
                    Port::Output(*value, *output_index, *element_index),
                    *output_index,
                    *element_index,
                    &out_offsets,
                    &out_ports,
                    false,
                ),
                _ => continue,
            };
            let i = a.const_uint(index).ok_or_else(|| FormError::BadCase("an index is not a constant".into()))?;
            let offset =
                offsets.get(i as usize).copied().ok_or_else(|| FormError::BadCase("index out of range".into()))?;
            let is_array = ports.get(i as usize).is_some_and(|(_, p)| p.is_some());
            let e = match (element, is_array) {
                (Some(e), true) => {
                    a.const_uint(e).ok_or_else(|| FormError::BadCase("an ElementIndex is not a constant".into()))?
                }
                (None, false) => 0,
                (None, true) => return Err(FormError::NotApplicable("a whole tensor array is read or set".into())),
                (Some(_), false) => return Err(FormError::BadCase("an ElementIndex on a tensor port".into())),
            };
            let position = if is_input {
                new_input
                    .get((offset + e) as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| FormError::BadCase("an input read is out of range".into()))?
            } else {
                offset + e
            };
            out.insert(key, position as u32);
        }
        out
    };
    edit::set_io_types(&mut case.module, g, &new_ins, &new_outs);
    // Array variables become one variable per element kept, in every entry point.
    let entry_points =
        case.module.insts.iter().filter(|i| matches!(i, Inst::GraphEntryPoint { graph, .. } if *graph == g)).count();
    let mut element_vars: Vec<HashMap<(usize, bool), Vec<Id>>> = Vec::with_capacity(entry_points);
    for _ in 0..entry_points {
        let mut vars_of = HashMap::new();
        for (is_out, ports) in [(false, &in_ports), (true, &out_ports)] {
            for (k, (_, p)) in ports.iter().enumerate() {
                if let Some((element, n)) = p {
                    let kept = |e: u64| is_out || read.get(k).and_then(|r| r.get(e as usize)).copied().unwrap_or(false);
                    let vars =
                        (0..*n).filter(|&e| kept(e)).map(|_| decls::interface_variable(&mut case.module, *element));
                    vars_of.insert((k, is_out), vars.collect());
                }
            }
        }
        element_vars.push(vars_of);
    }
    let n_in = in_ports.len();
    let mut nth = 0;
    each_entry_point(&mut case, g, |interface| {
        let mut out = Vec::new();
        let vars_of = element_vars.get(nth).cloned().unwrap_or_default();
        for (k, &var) in interface.iter().enumerate() {
            let key = if k < n_in { (k, false) } else { (k - n_in, true) };
            match vars_of.get(&key) {
                Some(vars) => out.extend(vars.iter().copied()),
                None => out.push(var),
            }
        }
        nth += 1;
        *interface = out;
    });
    let mut kept = keep_input.iter();
    case.inputs.retain(|_| kept.next().copied().unwrap_or(false));
    let indices: HashMap<u32, Id> = reindex.values().map(|&i| (i, decls::const_u32(&mut case.module, i))).collect();
    for inst in &mut case.module.insts {
        match inst {
            Inst::GraphInput { result, input_index, element_index, .. } => {
                if let Some(to) = reindex.get(&Port::Input(*result)).and_then(|i| indices.get(i)) {
                    *input_index = *to;
                    *element_index = None;
                }
            }
            Inst::GraphSetOutput { value, output_index, element_index } => {
                let key = Port::Output(*value, *output_index, *element_index);
                if let Some(to) = reindex.get(&key).and_then(|i| indices.get(i)) {
                    *output_index = *to;
                    *element_index = None;
                }
            }
            _ => {}
        }
    }
    edit::tidy(&mut case.module, &dead);
    Made::one(case)
}

/// An input (by its result) or an output (by value, OutputIndex and
/// ElementIndex, which together name it once).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Port {
    Input(Id),
    Output(Id, Id, Option<Id>),
}

//! Closing a graph: choosing its outputs, grouping inputs/outputs into
//! tensor arrays (ElementIndex), declaring the interface types, emitting the
//! graph definition, and exporting it under one or more entry points.

use super::{Synth, ValueKind};
use crate::case::{EntryPoint, InputTensor, InterfaceSlot};
use crate::data;
use crate::range::Domain;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};

/// Most further entry points exporting one graph.
const MAX_ALIASES: u32 = 3;

/// One InputIndex/OutputIndex: a plain tensor or a tensor array.
#[derive(Clone, Debug)]
struct Slot {
    /// Pool values per element (`None`: an array element never read).
    members: Vec<Option<usize>>,
    array: bool,
    /// Unshaped interface type: `Some(true)` ranked-only, `Some(false)` unranked.
    unshaped: Option<bool>,
    elem: ElemType,
    shape: Vec<u32>,
}

impl Synth<'_, '_> {
    pub(crate) fn finish_graph(&mut self) {
        if !self.g.values.iter().any(|v| matches!(v.kind, ValueKind::Input)) {
            // spirv-val 2025.5 handles graphs without inputs badly (SPIRV-Tools
            // #6291) and a graph needs something to read: add one input.
            let elem = self.g.values.first().map_or(ElemType::Fp32, |v| v.elem);
            let rank = self.random_rank();
            let shape = self.random_shape(rank);
            let need = self.any_need(elem);
            self.fresh_input(elem, &shape, &need);
        }
        let outputs = self.choose_outputs();
        let in_slots = self.input_slots();
        let out_slots = self.output_slots(outputs, &in_slots);

        let in_types: Vec<Id> = in_slots.iter().map(|s| self.slot_type(s)).collect();
        let out_types: Vec<Id> = out_slots.iter().map(|s| self.slot_type(s)).collect();
        let gty = self.b.type_graph(&in_types, &out_types);
        self.b.graph_inst(Inst::Graph { ty: gty, result: self.g.id });

        let mut input_insts = Vec::new();
        for (index, slot) in in_slots.iter().enumerate() {
            let ty = self.element_type(slot);
            for (e, m) in slot.members.iter().enumerate() {
                let Some(v) = m else { continue };
                let input_index = self.b.const_u32(index as u32);
                let element_index = slot.array.then(|| self.b.const_u32(e as u32));
                let result = self.g.values[*v].id;
                input_insts.push(Inst::GraphInput { ty, result, input_index, element_index });
            }
        }
        if input_insts.len() > 1 && self.dice.chance(self.cfg.probs.shuffle_inputs) {
            self.dice.shuffle(&mut input_insts);
            self.feature("iface:inputs-out-of-order");
        }
        for i in input_insts {
            self.b.graph_inst(i);
        }
        let prologue = self.debug_prologue();
        for i in prologue.into_iter().chain(std::mem::take(&mut self.g.body)) {
            self.b.graph_inst(i);
        }
        for (index, slot) in out_slots.iter().enumerate() {
            for (e, m) in slot.members.iter().enumerate() {
                let Some(v) = m else { continue };
                let value = self.g.values[*v].id;
                let output_index = self.b.const_u32(index as u32);
                let element_index = slot.array.then(|| self.b.const_u32(e as u32));
                self.b.graph_inst(Inst::GraphSetOutput { value, output_index, element_index });
            }
        }
        self.b.graph_inst(Inst::GraphEnd);
        let gname = format!("graph_{}", self.g.index);
        self.maybe_name(self.g.id, &gname);
        self.export(&in_slots, &out_slots, &in_types, &out_types);
    }

    /// A fresh graph input regardless of the constant probability.
    fn fresh_input(&mut self, elem: ElemType, shape: &[u32], need: &super::Need) -> usize {
        let (d, summary) = data::generate_summarised(&mut self.rng, elem, shape, &need.fresh);
        let range = summary.range;
        self.g.inputs += 1;
        self.g.elements += super::elements(shape);
        let id = self.b.id();
        self.g.values.push(super::Value {
            id,
            elem,
            shape: shape.to_vec(),
            range,
            kind: ValueKind::Input,
            data: Some(d),
            uses: 0,
            depth: 0,
            dead: false,
            special: false,
        });
        self.g.values.len() - 1
    }

    /// Sinks (results nothing consumes) plus, sometimes, an inner value, a
    /// pass-through input, a constant and a second copy of one output;
    /// sometimes a sink is left unused.
    fn choose_outputs(&mut self) -> Vec<usize> {
        let max = self.cfg.max_graph_outputs.max(1) as usize;
        let vals = &self.g.values;
        let sinks: Vec<usize> = (0..vals.len())
            .filter(|&i| matches!(vals[i].kind, ValueKind::Result) && vals[i].uses == 0 && !vals[i].dead)
            .collect();
        let mut outs = sinks.clone();
        if outs.len() > max {
            outs.drain(..outs.len() - max);
        }
        if !outs.is_empty() && self.dice.chance(self.cfg.probs.unused_result) {
            // With no other output left, a pass-through input is added below.
            let at = self.dice.below(outs.len());
            outs.remove(at);
        }
        let vals = &self.g.values;
        let inner: Vec<usize> =
            (0..vals.len()).filter(|&i| matches!(vals[i].kind, ValueKind::Result) && vals[i].uses > 0).collect();
        let inputs: Vec<usize> = (0..vals.len()).filter(|&i| matches!(vals[i].kind, ValueKind::Input)).collect();
        let consts: Vec<usize> = (0..vals.len()).filter(|&i| matches!(vals[i].kind, ValueKind::Const)).collect();
        if self.dice.chance(self.cfg.probs.output_inner_value) {
            outs.extend(self.dice.pick(&inner));
        }
        if outs.is_empty() || self.dice.chance(self.cfg.probs.output_from_input) {
            outs.extend(self.dice.pick(&inputs));
        }
        // A graph without operations writes its constant, if it has one.
        if self.g.nodes == 0 || self.dice.chance(self.cfg.probs.output_from_constant) {
            outs.extend(self.dice.pick(&consts));
        }
        outs.truncate(max.max(1));
        if outs.len() < max && self.dice.chance(self.cfg.probs.duplicate_output) {
            if let Some(&v) = self.dice.pick(&outs) {
                let at = self.dice.below(outs.len() + 1);
                outs.insert(at, v);
                self.feature("output:same-value-twice");
            }
        }
        // Recorded from the final list (the truncation may drop additions).
        if sinks.iter().any(|s| !outs.contains(s)) {
            self.feature("unused:result");
        }
        for &v in &outs {
            let val = &self.g.values[v];
            let f = match val.kind {
                ValueKind::Result if val.uses > 0 => "output:inner-value",
                ValueKind::Result => continue,
                ValueKind::Input => "output:from-input",
                ValueKind::Const => "output:from-constant",
            };
            self.feature(f);
        }
        outs
    }

    /// Input slots in creation order; some grouped into tensor arrays, some
    /// with unshaped interface types.
    fn input_slots(&mut self) -> Vec<Slot> {
        let inputs: Vec<usize> =
            (0..self.g.values.len()).filter(|&i| matches!(self.g.values[i].kind, ValueKind::Input)).collect();
        let mut taken = vec![false; inputs.len()];
        let mut slots = Vec::new();
        for i in 0..inputs.len() {
            if taken[i] {
                continue;
            }
            taken[i] = true;
            let v = inputs[i];
            let (elem, shape) = (self.g.values[v].elem, self.g.values[v].shape.clone());
            if self.dice.chance(self.cfg.probs.tensor_array_input) {
                let mut members = vec![Some(v)];
                for j in i + 1..inputs.len() {
                    let w = inputs[j];
                    if !taken[j]
                        && members.len() < 4
                        && self.g.values[w].elem == elem
                        && self.g.values[w].shape == shape
                    {
                        taken[j] = true;
                        members.push(Some(w));
                    }
                }
                if self.dice.chance(self.cfg.probs.unread_array_element) {
                    let at = self.dice.below(members.len() + 1);
                    members.insert(at, None);
                    self.feature("iface:array-unread-element");
                }
                self.dice.shuffle(&mut members);
                self.feature("iface:array-input");
                if members.len() == 1 {
                    self.feature("iface:array-length-1");
                }
                slots.push(Slot { members, array: true, unshaped: None, elem, shape });
            } else {
                let unshaped = self
                    .dice
                    .chance(self.cfg.probs.unshaped_input)
                    .then(|| self.dice.chance(self.cfg.probs.ranked_unshaped));
                if let Some(ranked) = unshaped {
                    self.feature(if ranked { "iface:ranked-unshaped-input" } else { "iface:unranked-input" });
                }
                slots.push(Slot { members: vec![Some(v)], array: false, unshaped, elem, shape });
            }
        }
        slots
    }

    /// Output slots; values of one tensor type may share a tensor array
    /// (every element written). An unshaped input written straight to an
    /// output keeps its unshaped type there (the output type must be the
    /// value's type).
    fn output_slots(&mut self, outputs: Vec<usize>, ins: &[Slot]) -> Vec<Slot> {
        let unshaped_of = |v: usize| ins.iter().find(|s| s.members.contains(&Some(v))).and_then(|s| s.unshaped);
        let mut taken = vec![false; outputs.len()];
        let mut slots = Vec::new();
        for i in 0..outputs.len() {
            if taken[i] {
                continue;
            }
            taken[i] = true;
            let v = outputs[i];
            let (elem, shape) = (self.g.values[v].elem, self.g.values[v].shape.clone());
            let unshaped = unshaped_of(v);
            let mut members = vec![Some(v)];
            let array = self.dice.chance(self.cfg.probs.tensor_array_output);
            if array {
                for j in i + 1..outputs.len() {
                    let w = outputs[j];
                    let same_type =
                        self.g.values[w].elem == elem && self.g.values[w].shape == shape && unshaped_of(w) == unshaped;
                    if !taken[j] && members.len() < 4 && same_type {
                        taken[j] = true;
                        members.push(Some(w));
                    }
                }
                self.feature("iface:array-output");
                if members.len() == 1 {
                    self.feature("iface:array-length-1");
                }
                if members.iter().enumerate().any(|(k, m)| members[..k].contains(m)) {
                    self.feature("output:same-value-in-array");
                }
            }
            slots.push(Slot { members, array, unshaped, elem, shape });
        }
        slots
    }

    /// The type an OpGraphInputARM of the slot has (the element type for arrays).
    fn element_type(&mut self, s: &Slot) -> Id {
        match s.unshaped {
            Some(true) => self.b.type_tensor_ranked(s.elem, s.shape.len() as u32),
            Some(false) => self.b.type_tensor(s.elem, None),
            None => self.b.type_tensor(s.elem, Some(&s.shape)),
        }
    }

    /// The interface type of the slot (an array type for tensor arrays).
    fn slot_type(&mut self, s: &Slot) -> Id {
        let t = self.element_type(s);
        if s.array {
            self.b.type_array(t, s.members.len() as u32)
        } else {
            t
        }
    }

    /// Interface variables and OpGraphEntryPointARM (sometimes twice), and
    /// the case's view of each entry point.
    fn export(&mut self, ins: &[Slot], outs: &[Slot], in_types: &[Id], out_types: &[Id]) {
        let n = ins.len() + outs.len();
        let mut bindings: Vec<u32> = (0..n as u32).collect();
        if self.dice.chance(self.cfg.probs.shuffle_bindings) {
            self.dice.shuffle(&mut bindings);
            self.feature("iface:shuffled-bindings");
        }
        let name = format!("graph{}", self.g.index);
        let vars = self.variables(in_types, out_types, 0, &bindings);
        self.b.graph_entry_point(self.g.id, &name, vars.clone());
        let primary = self.entry_record(&name, ins, outs, 0, &bindings);
        self.entry_points.push(primary);
        let mut aliases = 0u32;
        while aliases < MAX_ALIASES {
            let p = if aliases == 0 { self.cfg.probs.alias_entry_point } else { self.cfg.probs.more_entry_points };
            if !self.dice.chance(p) {
                break;
            }
            aliases += 1;
            let dup = self.dice.chance(self.cfg.probs.duplicate_entry_point_name);
            let alias = match (dup, aliases) {
                (true, _) => name.clone(),
                (false, 1) => format!("graph{}_alias", self.g.index),
                (false, k) => format!("graph{}_alias{k}", self.g.index),
            };
            self.feature(if dup { "entry:duplicate-name" } else { "entry:alias" });
            let (vars2, set) = if self.dice.chance(self.cfg.probs.shared_interface) {
                self.feature("entry:shared-interface");
                (vars.clone(), 0)
            } else {
                (self.variables(in_types, out_types, aliases, &bindings), aliases)
            };
            self.b.graph_entry_point(self.g.id, &alias, vars2);
            let rec = self.entry_record(&alias, ins, outs, set, &bindings);
            self.entry_points.push(rec);
        }
        if aliases >= 2 {
            self.feature("entry:three-or-more");
        }
    }

    fn variables(&mut self, in_types: &[Id], out_types: &[Id], set: u32, bindings: &[u32]) -> Vec<Id> {
        let mut vars = Vec::new();
        for (i, &ty) in in_types.iter().chain(out_types).enumerate() {
            let binding = bindings.get(i).copied().unwrap_or(i as u32);
            let v = self.b.interface_variable(ty, set, binding);
            let role = if i < in_types.len() { format!("in{i}") } else { format!("out{}", i - in_types.len()) };
            self.maybe_name(v, &format!("graph{}_{role}_s{set}", self.g.index));
            vars.push(v);
        }
        vars
    }

    fn entry_record(&mut self, name: &str, ins: &[Slot], outs: &[Slot], set: u32, bindings: &[u32]) -> EntryPoint {
        let mut inputs = Vec::new();
        for (index, s) in ins.iter().enumerate() {
            for (e, m) in s.members.iter().enumerate() {
                let slot = InterfaceSlot {
                    index: index as u32,
                    element: s.array.then_some(e as u32),
                    elem: s.elem,
                    shape: s.shape.clone(),
                    descriptor_set: set,
                    binding: bindings.get(index).copied().unwrap_or(index as u32),
                    used: m.is_some(),
                };
                let data = match m.and_then(|v| self.g.values.get(v)).and_then(|v| v.data.clone()) {
                    Some(d) => d,
                    None => {
                        let spec = self.default_data(s.elem, Domain::any(s.elem));
                        data::generate(&mut self.rng, s.elem, &s.shape, &spec)
                    }
                };
                inputs.push(InputTensor { slot, data });
            }
        }
        let mut outputs = Vec::new();
        for (index, s) in outs.iter().enumerate() {
            for (e, _) in s.members.iter().enumerate() {
                let b = ins.len() + index;
                outputs.push(InterfaceSlot {
                    index: index as u32,
                    element: s.array.then_some(e as u32),
                    elem: s.elem,
                    shape: s.shape.clone(),
                    descriptor_set: set,
                    binding: bindings.get(b).copied().unwrap_or(b as u32),
                    used: true,
                });
            }
        }
        EntryPoint { name: name.to_string(), graph: self.g.index, inputs, outputs }
    }
}

//! Mutators for the Vulkan interface rules (`vulkan.interface.*`,
//! `vulkan.addressing-model`): descriptor decorations of interface
//! variables, runtime-array variables and the addressing model; and the
//! pipeline mutator of `vulkan.interface.shaped` (unshaped graph
//! interfaces: a valid module whose entry point cannot get a pipeline).

use super::{no_bias, Edit, Mutator};
use crate::Config;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;

/// `Decoration::Binding`.
const BINDING: u32 = 33;
/// `Decoration::DescriptorSet`.
const DESCRIPTOR_SET: u32 = 34;
/// `StorageClass::UniformConstant`.
const UNIFORM_CONSTANT: u32 = 0;
/// `Capability::Addresses`.
const ADDRESSES: u32 = 4;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    let m = |rule, name, bias, apply| Mutator { rule, name, bias, apply };
    vec![
        m(RuleId::VulkanDescriptorSetBinding, "drop-binding", no_bias, |e| drop_decoration(e, BINDING)),
        m(RuleId::VulkanDescriptorSetBinding, "drop-descriptor-set", no_bias, |e| drop_decoration(e, DESCRIPTOR_SET)),
        m(RuleId::VulkanRuntimeArrayVariable, "array-interface-to-runtime-array", bias_arrays, array_to_runtime),
        m(RuleId::VulkanRuntimeArrayVariable, "stray-runtime-array-variable", no_bias, stray_runtime_array),
        m(RuleId::VulkanAddressingModel, "physical-addressing", no_bias, physical_addressing),
    ]
}

/// The pipeline mutators of this category.
pub(super) fn pipeline_mutators() -> Vec<Mutator> {
    vec![Mutator { rule: RuleId::VulkanInterfaceShaped, name: "unshape-input", bias: no_bias, apply: unshape_input }]
}

fn bias_arrays(c: &mut Config) {
    c.probs.tensor_array_input = 1.0;
    c.probs.tensor_array_output = 1.0;
}

// ---- helpers -------------------------------------------------------------------------

/// Inserts an `OpDecorate` among the annotations.
fn add_decoration(e: &mut Edit, target: Id, decoration: u32, literal: u32) {
    let at = match e.module.insts.iter().rposition(|i| matches!(i, Inst::Decorate { .. })) {
        Some(i) => i + 1,
        None => e
            .module
            .insts
            .iter()
            .position(|i| i.is_type() || i.is_constant() || matches!(i, Inst::Variable { .. }))
            .unwrap_or(e.module.insts.len()),
    };
    e.insert(at, Inst::Decorate { target, decoration, literals: vec![literal] });
}

/// The UniformConstant pointer to `pointee`, declared if missing.
fn pointer_to(e: &mut Edit, pointee: Id) -> Id {
    let found = e.module.insts.iter().find_map(|i| match i {
        Inst::TypePointer { result, storage: UNIFORM_CONSTANT, pointee: p } if *p == pointee => Some(*result),
        _ => None,
    });
    found.unwrap_or_else(|| {
        let result = e.fresh_id();
        e.add_global(Inst::TypePointer { result, storage: UNIFORM_CONSTANT, pointee });
        result
    })
}

/// A new UniformConstant variable of `pointee`, decorated with a descriptor
/// set no other variable uses (binding 0), so it is a complete Vulkan
/// resource. Shifts the graph section (declarations and decorations).
pub(super) fn new_interface_variable(e: &mut Edit, pointee: Id) -> Id {
    let set = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Decorate { decoration: DESCRIPTOR_SET, literals, .. } => literals.first().copied(),
            _ => None,
        })
        .max()
        .map_or(0, |s| s.saturating_add(1));
    let ptr = pointer_to(e, pointee);
    let var = e.fresh_id();
    e.add_global(Inst::Variable { ty: ptr, result: var, storage: UNIFORM_CONSTANT, initializer: None });
    add_decoration(e, var, DESCRIPTOR_SET, set);
    add_decoration(e, var, BINDING, 0);
    var
}

/// The variables named by graph entry points (each once, in module order).
fn interface_variables(e: &Edit) -> Vec<Id> {
    let mut out: Vec<Id> = Vec::new();
    for inst in &e.module.insts {
        if let Inst::GraphEntryPoint { interface, .. } = inst {
            for v in interface {
                if !out.contains(v) {
                    out.push(*v);
                }
            }
        }
    }
    out
}

// ---- vulkan.interface.descriptor-set-binding -----------------------------------------

/// An interface variable loses its `decoration` (Binding or DescriptorSet),
/// sometimes both.
fn drop_decoration(e: &mut Edit, decoration: u32) -> Option<()> {
    let vars: Vec<Id> = interface_variables(e)
        .into_iter()
        .filter(|v| {
            e.module
                .insts
                .iter()
                .any(|i| matches!(i, Inst::Decorate { target, decoration: d, .. } if target == v && *d == decoration))
        })
        .collect();
    let v = e.choose(&vars)?;
    let both = e.int_in(0, 3) == 0;
    e.module.insts.retain(|i| match i {
        Inst::Decorate { target, decoration: d, .. } if *target == v => {
            !(*d == decoration || (both && (*d == BINDING || *d == DESCRIPTOR_SET)))
        }
        _ => true,
    });
    let what = if both {
        "DescriptorSet and Binding"
    } else if decoration == BINDING {
        "Binding"
    } else {
        "DescriptorSet"
    };
    e.note(format!("interface variable %{} has no {what} decoration", v.0));
    Some(())
}

// ---- vulkan.interface.runtime-array --------------------------------------------------

/// An array-of-tensors interface type becomes a runtime array (the
/// variables of that type then have a runtime-array type). The
/// RuntimeDescriptorArray capability, without which Vulkan does not allow
/// a run-time sized array of resources, is not declared (with it, the
/// module would be valid: 04680 allows a runtime array as the outermost
/// dimension of a UniformConstant variable).
fn array_to_runtime(e: &mut Edit) -> Option<()> {
    let pointees: Vec<Id> = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::TypePointer { storage: UNIFORM_CONSTANT, pointee, .. } => Some(*pointee),
            _ => None,
        })
        .collect();
    let cands: Vec<usize> = e.indices(|i| match i {
        Inst::TypeArray { result, element, .. } => {
            pointees.contains(result)
                && matches!(e.def(*element), Some(Inst::TypeTensor { .. }))
                // No constant of the array type (it would stop being a valid composite).
                && !e.module.insts.iter().any(|c| c.is_constant() && c.result_type() == Some(*result))
                // Two runtime arrays of one element type are fine in SPIR-V
                // (aggregates), but keep the module minimal.
                && !e.module.insts.iter().any(|r| matches!(r, Inst::TypeRuntimeArray { element: el, .. } if el == element))
        }
        _ => false,
    });
    let at = e.choose(&cands)?;
    let Some(Inst::TypeArray { result, element, .. }) = e.module.insts.get(at) else { return None };
    let (result, element) = (*result, *element);
    *e.module.insts.get_mut(at)? = Inst::TypeRuntimeArray { result, element };
    e.note(format!("array-of-tensors interface type %{} made an OpTypeRuntimeArray", result.0));
    Some(())
}

/// A new decorated UniformConstant variable of a runtime array of tensors
/// (in no entry point's interface).
fn stray_runtime_array(e: &mut Edit) -> Option<()> {
    let tensors = e.results_where(|i| matches!(i, Inst::TypeTensor { rank: Some(_), shape: Some(_), .. }));
    let t = e.choose(&tensors)?;
    let found = e.module.insts.iter().find_map(|i| match i {
        Inst::TypeRuntimeArray { result, element } if *element == t => Some(*result),
        _ => None,
    });
    let rta = match found {
        Some(r) => r,
        None => {
            let result = e.fresh_id();
            e.add_global(Inst::TypeRuntimeArray { result, element: t });
            result
        }
    };
    let var = new_interface_variable(e, rta);
    e.note(format!("new UniformConstant variable %{} of a runtime array of tensor %{}", var.0, t.0));
    Some(())
}

// ---- vulkan.interface.shaped (pipeline) ----------------------------------------------

/// A plain graph input gets a ranked-only or unranked tensor type: in the
/// graph type (a new one, since the old may be shared), the interface
/// variables of that position and the read's Result Type. Its consumers
/// then see an unshaped operand, which SPV_ARM_graph allows (spirv-val
/// accepts; TOSA shape checks of the consumers become may-accept). The
/// module stays valid; a pipeline for the graph's entry points is refused
/// (VUID-RuntimeSpirv-pNext-09919).
fn unshape_input(e: &mut Edit) -> Option<()> {
    let graphs = e.graphs();
    let g = e.choose(&graphs)?;
    let (num_inputs, io) = match e.def(g.ty)? {
        Inst::TypeGraph { num_inputs, io, .. } => (*num_inputs, io.clone()),
        _ => return None,
    };
    // Values the graph writes to outputs (an unshaped input passed straight
    // through would make the output type wrong too).
    let written: Vec<Id> = (g.begin..g.end)
        .filter_map(|i| match e.module.insts.get(i) {
            Some(Inst::GraphSetOutput { value, .. }) => Some(*value),
            _ => None,
        })
        .collect();
    let a = e.analysis();
    let reads_of = |k: u64| -> Vec<usize> {
        (g.begin..g.end)
            .filter(|&i| match e.module.insts.get(i) {
                Some(Inst::GraphInput { input_index, .. }) => a.const_uint(*input_index) == Some(k),
                _ => false,
            })
            .collect()
    };
    let mut cands = Vec::new();
    for k in 0..num_inputs.min(io.len() as u32) {
        let Some(&ty) = io.get(k as usize) else { continue };
        if !matches!(e.def(ty), Some(Inst::TypeTensor { rank: Some(_), shape: Some(_), .. })) {
            continue;
        }
        let reads = reads_of(u64::from(k));
        let ok = !reads.is_empty()
            && reads.iter().all(|&i| match e.module.insts.get(i) {
                Some(Inst::GraphInput { ty: t, result, element_index: None, .. }) => {
                    *t == ty && !written.contains(result)
                }
                _ => false,
            });
        if ok {
            cands.push(k);
        }
    }
    drop(a);
    let k = e.choose(&cands)?;
    let old = *io.get(k as usize)?;
    let Some(Inst::TypeTensor { element, rank: Some(rank), .. }) = e.def(old) else { return None };
    let (element, rank) = (*element, *rank);
    let ranked = e.flip();
    let new_rank = ranked.then_some(rank);

    // The variables at position k of this graph's entry points; none may be
    // shared with an entry point of another graph.
    let mut vars: Vec<Id> = Vec::new();
    for inst in &e.module.insts {
        if let Inst::GraphEntryPoint { graph, interface, .. } = inst {
            if *graph == g.id {
                vars.extend(interface.get(k as usize).copied());
            }
        }
    }
    for inst in &e.module.insts {
        if let Inst::GraphEntryPoint { graph, interface, .. } = inst {
            if *graph != g.id && interface.iter().any(|x| vars.contains(x)) {
                return None;
            }
        }
    }
    // Every one of them must point to the old type (else the base was odd).
    let var_ptr = |v: Id| match e.def(v) {
        Some(Inst::Variable { ty, .. }) => Some(*ty),
        _ => None,
    };
    for &v in &vars {
        match var_ptr(v).and_then(|p| e.def(p)) {
            Some(Inst::TypePointer { pointee, .. }) if *pointee == old => {}
            _ => return None,
        }
    }

    // The unshaped tensor type and its pointer go right before the first of
    // those variables (they must be declared before use); their operands
    // (element type, rank constant) are declared before the old type.
    let first_var = vars.iter().filter_map(|&v| e.def_index(v)).min()?;
    let unshaped = e.module.insts.iter().find_map(|i| match i {
        Inst::TypeTensor { result, element: el, rank: r, shape: None } if *el == element && *r == new_rank => {
            Some(*result)
        }
        _ => None,
    });
    let mut at = first_var;
    let unshaped = match unshaped {
        Some(t) if e.def_index(t)? < at => t,
        Some(_) => return None,
        None => {
            let t = e.fresh_id();
            e.insert(at, Inst::TypeTensor { result: t, element, rank: new_rank, shape: None });
            at += 1;
            t
        }
    };
    let ptr = e.module.insts.iter().enumerate().find_map(|(i, inst)| match inst {
        Inst::TypePointer { result, storage: UNIFORM_CONSTANT, pointee } if *pointee == unshaped && i < at => {
            Some(*result)
        }
        _ => None,
    });
    let ptr = match ptr {
        Some(p) => p,
        None => {
            let p = e.fresh_id();
            e.insert(at, Inst::TypePointer { result: p, storage: UNIFORM_CONSTANT, pointee: unshaped });
            p
        }
    };
    for inst in e.module.insts.iter_mut() {
        if let Inst::Variable { ty, result, .. } = inst {
            if vars.contains(result) {
                *ty = ptr;
            }
        }
    }
    // The new graph type (reused if one with this signature exists).
    let mut new_io = io.clone();
    *new_io.get_mut(k as usize)? = unshaped;
    let found = e.module.insts.iter().find_map(|i| match i {
        Inst::TypeGraph { result, num_inputs: n, io: x } if *n == num_inputs && *x == new_io => Some(*result),
        _ => None,
    });
    let gty = match found {
        Some(t) => t,
        None => {
            let t = e.fresh_id();
            e.add_global(Inst::TypeGraph { result: t, num_inputs, io: new_io });
            t
        }
    };
    let begin = e.def_index(g.id)?;
    if let Some(Inst::Graph { ty, .. }) = e.module.insts.get_mut(begin) {
        *ty = gty;
    }
    let k64 = u64::from(k);
    let reads: Vec<usize> = {
        let a = e.analysis();
        (begin..e.module.insts.len())
            .take_while(|&i| !matches!(e.module.insts.get(i), Some(Inst::GraphEnd)))
            .filter(|&i| match e.module.insts.get(i) {
                Some(Inst::GraphInput { input_index, .. }) => a.const_uint(*input_index) == Some(k64),
                _ => false,
            })
            .collect()
    };
    for i in reads {
        if let Some(Inst::GraphInput { ty, .. }) = e.module.insts.get_mut(i) {
            *ty = unshaped;
        }
    }
    let kind = if ranked { "ranked-only" } else { "unranked" };
    e.note(format!("graph input {k} of graph %{} made {kind} (type %{}, was %{})", g.id.0, unshaped.0, old.0));
    Some(())
}

// ---- vulkan.addressing-model ---------------------------------------------------------

/// Physical32 or Physical64 addressing, with the Addresses capability those
/// models require declared (without it the module would also break the core
/// rule that operand values have their capabilities; with it the module is
/// valid SPIR-V outside Vulkan). Vulkan does not allow the Addresses
/// capability either, a second Vulkan restriction the catalogue has no rule
/// for: spirv-val reports that one first.
fn physical_addressing(e: &mut Edit) -> Option<()> {
    let model = if e.flip() { 2 } else { 1 };
    let at = e.module.insts.iter().position(|i| matches!(i, Inst::MemoryModel { .. }))?;
    match e.module.insts.get_mut(at)? {
        Inst::MemoryModel { addressing, .. } => *addressing = model,
        _ => return None,
    }
    if !e.module.insts.iter().any(|i| matches!(i, Inst::Capability(ADDRESSES))) {
        let last_cap = e.module.insts.iter().rposition(|i| matches!(i, Inst::Capability(_))).map_or(0, |i| i + 1);
        e.insert(last_cap, Inst::Capability(ADDRESSES));
    }
    let name = if model == 2 { "Physical64" } else { "Physical32" };
    e.note(format!("addressing model {name} (with OpCapability Addresses)"));
    Some(())
}

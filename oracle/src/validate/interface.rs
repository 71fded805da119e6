//! Graph entry points and interface variables, and the Vulkan standalone
//! rules about them (descriptor decorations, runtime arrays, addressing
//! model). Shaped interfaces are a pipeline-creation rule (`pipeline.rs`).

use super::context::Cx;
use super::graph::graph_io;
use spirv::{Decoration, StorageClass};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;

/// The `(decoration, target)` pairs of the DescriptorSet and Binding
/// decorations, sorted (one pass for both).
fn descriptor_decorations(cx: &Cx<'_>) -> Vec<(u32, Id)> {
    let (set, binding) = (Decoration::DescriptorSet as u32, Decoration::Binding as u32);
    let mut pairs: Vec<(u32, Id)> = Vec::with_capacity(cx.lists.decorations.len());
    for inst in cx.lists.decorations.iter().filter_map(|&i| cx.insts.get(i)) {
        if let Inst::Decorate { target, decoration, .. } = inst {
            if *decoration == set || *decoration == binding {
                pairs.push((*decoration, *target));
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

/// Whether a type is a tensor or an array of tensors (what UniformConstant
/// graph resources are).
fn is_tensor_resource(cx: &Cx<'_>, ty: Id) -> bool {
    match cx.def(ty) {
        Some(Inst::TypeTensor { .. }) => true,
        Some(Inst::TypeArray { element, .. } | Inst::TypeRuntimeArray { element, .. }) => {
            matches!(cx.def(*element), Some(Inst::TypeTensor { .. }))
        }
        _ => false,
    }
}

fn check_entry_point(cx: &mut Cx<'_>, i: usize, graph: Id, interface: &[Id]) {
    let io = match cx.def(graph) {
        Some(Inst::Graph { ty, .. }) => graph_io(cx, *ty),
        Some(_) => {
            cx.at(i, RuleId::GraphEntryPointNotAGraph, format_args!("Graph %{} is not an OpGraphARM", graph.0));
            return;
        }
        None => return,
    };
    let Some((inputs, outputs)) = io else { return };
    let expected = || inputs.iter().chain(outputs);
    if interface.len() != inputs.len() + outputs.len() {
        cx.at(
            i,
            RuleId::GraphEntryPointInterfaceCount,
            format_args!(
                "the Interface list has {} variables but the graph has {} inputs and {} outputs",
                interface.len(),
                inputs.len(),
                outputs.len()
            ),
        );
    }
    for (k, (var, want)) in interface.iter().zip(expected()).enumerate() {
        let pointee = match cx.def(*var) {
            Some(Inst::Variable { ty, storage, .. }) if *storage == StorageClass::UniformConstant as u32 => {
                match cx.def(*ty) {
                    Some(Inst::TypePointer { pointee, .. }) => Some(*pointee),
                    _ => None,
                }
            }
            Some(_) => {
                cx.at(
                    i,
                    RuleId::GraphEntryPointInterfaceVariable,
                    format_args!("Interface %{} is not an OpVariable in the UniformConstant storage class", var.0),
                );
                continue;
            }
            None => continue,
        };
        if let Some(p) = pointee {
            if p != *want {
                let role = if k < inputs.len() { "input" } else { "output" };
                cx.at(
                    i,
                    RuleId::GraphEntryPointInterfaceType,
                    format_args!(
                        "Interface %{} points to type %{} but the graph's {role} type at this position is %{}",
                        var.0, p.0, want.0
                    ),
                );
            }
        }
    }
}

/// Storage classes in which 04680 lets a variable be a runtime array (its
/// outermost dimension): StorageBuffer, Uniform, UniformConstant.
fn runtime_array_storage(storage: u32) -> bool {
    [StorageClass::StorageBuffer, StorageClass::Uniform, StorageClass::UniformConstant]
        .iter()
        .any(|s| *s as u32 == storage)
}

/// Runs the entry-point and interface checks.
pub fn check(cx: &mut Cx<'_>) {
    let insts = cx.insts;
    let mut names: Vec<(&str, usize)> = Vec::new();
    let mut any_entry_point = false;
    let decorations = if cx.vulkan() { descriptor_decorations(cx) } else { Vec::new() };
    let decorated = |d: Decoration, id: Id| decorations.binary_search(&(d as u32, id)).is_ok();
    let runtime_descriptor_array = cx.has_capability(spirv::Capability::RuntimeDescriptorArray);
    let list = std::mem::take(&mut cx.lists.interface);
    for (i, inst) in list.iter().filter_map(|&i| Some((i, insts.get(i)?))) {
        match inst {
            Inst::GraphEntryPoint { graph, name, interface } => {
                any_entry_point = true;
                check_entry_point(cx, i, *graph, interface);
                match names.iter().find(|(n, _)| *n == name.as_str()) {
                    Some((_, first)) => {
                        let first = *first;
                        cx.at(
                            i,
                            RuleId::GraphEntryPointDuplicateName,
                            format_args!("graph entry point name \"{name}\" is already used by instruction {first}"),
                        );
                    }
                    None => names.push((name.as_str(), i)),
                }
            }
            Inst::Variable { ty, result, storage, .. } if cx.vulkan() => {
                let Some(Inst::TypePointer { pointee, .. }) = cx.def(*ty) else { continue };
                let pointee = *pointee;
                if matches!(cx.def(pointee), Some(Inst::TypeRuntimeArray { .. })) {
                    if !runtime_array_storage(*storage) {
                        cx.at(
                            i,
                            RuleId::VulkanRuntimeArrayVariable,
                            format_args!(
                                "under Vulkan a variable of OpTypeRuntimeArray type must be in the StorageBuffer, Uniform or UniformConstant storage class, not {storage}"
                            ),
                        );
                    } else if !runtime_descriptor_array {
                        cx.at(
                            i,
                            RuleId::VulkanRuntimeArrayVariable,
                            "under Vulkan a variable of OpTypeRuntimeArray type (a run-time sized array of resources) needs the RuntimeDescriptorArray capability, which is not declared",
                        );
                    }
                }
                if *storage == StorageClass::UniformConstant as u32
                    && is_tensor_resource(cx, pointee)
                    && !(decorated(Decoration::DescriptorSet, *result) && decorated(Decoration::Binding, *result))
                {
                    cx.at(
                        i,
                        RuleId::VulkanDescriptorSetBinding,
                        "a UniformConstant tensor variable must be decorated with DescriptorSet and Binding",
                    );
                }
            }
            Inst::MemoryModel { addressing, .. } if cx.vulkan() => {
                let ok = *addressing == spirv::AddressingModel::Logical as u32
                    || *addressing == spirv::AddressingModel::PhysicalStorageBuffer64 as u32;
                if !ok {
                    cx.at(
                        i,
                        RuleId::VulkanAddressingModel,
                        format_args!("addressing model {addressing} is not Logical or PhysicalStorageBuffer64"),
                    );
                }
            }
            _ => {}
        }
    }
    cx.lists.interface = list;
    if !any_entry_point && cx.has_capability(spirv::Capability::GraphARM) {
        cx.report(
            RuleId::GraphEntryPointMissing,
            None,
            "the GraphARM capability is declared but there is no OpGraphEntryPointARM",
        );
    }
}

//! NonSemantic.Graph.DebugInfo: import version, instruction forms, result
//! type, and what each operand must be. Placement is a layout rule
//! (`layout.graph-section.outside-graph`), forward references an id rule.

use super::context::Cx;
use super::imports::set_version;
use spvgraph_ir::elem::ScalarKind;
use spvgraph_ir::inst::{ExtSet, GraphDebugInst, Id, Inst, GRAPH_DEBUG_SET_PREFIX};
use spvgraph_ir::rules::RuleId;

/// The highest version of the instruction set this validator knows.
const VERSION: u64 = 1;

fn is_string(cx: &Cx<'_>, id: Id) -> bool {
    matches!(cx.def(id), Some(Inst::String { .. }))
}

fn check_name(cx: &mut Cx<'_>, i: usize, name: Id) {
    if cx.def_index(name).is_some() && !is_string(cx, name) {
        cx.at(i, RuleId::DebugInfoName, format_args!("Name %{} is not an OpString", name.0));
    }
}

/// The graph ordinal a DebugGraph result describes.
fn described_graph(cx: &Cx<'_>, debug_graph: Id) -> Result<Option<usize>, ()> {
    match cx.def(debug_graph) {
        Some(Inst::GraphDebug { inst: GraphDebugInst::Graph { graph, .. }, .. }) => {
            Ok(cx.graphs.iter().position(|g| g.result == *graph))
        }
        Some(_) => Err(()),
        None => Ok(None),
    }
}

fn check_inst(cx: &mut Cx<'_>, i: usize, ty: Id, d: &GraphDebugInst) {
    if cx.def_index(ty).is_some() && !matches!(cx.def(ty), Some(Inst::TypeVoid { .. })) {
        cx.at(i, RuleId::DebugInfoResultType, format_args!("Result Type %{} is not OpTypeVoid", ty.0));
    }
    match d {
        GraphDebugInst::Graph { graph, name } => {
            if cx.def_index(*graph).is_some() && !matches!(cx.def(*graph), Some(Inst::Graph { .. })) {
                cx.at(i, RuleId::DebugInfoGraph, format_args!("Graph %{} is not an OpGraphARM", graph.0));
            }
            check_name(cx, i, *name);
        }
        GraphDebugInst::Operation { debug_graph, name, instructions } => {
            check_name(cx, i, *name);
            let graph = match described_graph(cx, *debug_graph) {
                Err(()) => {
                    cx.at(
                        i,
                        RuleId::DebugInfoOperation,
                        format_args!("DebugGraph %{} is not a DebugGraph result", debug_graph.0),
                    );
                    return;
                }
                Ok(g) => g,
            };
            let Some(graph) = graph else { return };
            for id in instructions {
                let Some(at) = cx.def_index(*id) else { continue };
                let inside = cx.graph_at(at) == Some(graph) && !matches!(cx.insts.get(at), Some(Inst::Graph { .. }));
                if !inside {
                    cx.at(
                        i,
                        RuleId::DebugInfoOperation,
                        format_args!(
                            "instruction %{} is not within the graph that DebugGraph %{} describes",
                            id.0, debug_graph.0
                        ),
                    );
                    return;
                }
            }
        }
        GraphDebugInst::Tensor { tensor, name, index } => {
            check_name(cx, i, *name);
            let Some(tty) = cx.type_of(*tensor) else { return };
            let is_tensor = |t: &Id| matches!(cx.def(*t), Some(Inst::TypeTensor { .. }));
            // A composite: `Some(Some(n))` with n constituents, `Some(None)`
            // for a runtime array (any index).
            let members = match cx.def(tty) {
                Some(Inst::TypeTensor { .. }) => None,
                Some(Inst::TypeStruct { members, .. }) if !members.is_empty() && members.iter().all(is_tensor) => {
                    Some(Some(members.len() as u64))
                }
                Some(Inst::TypeArray { element, length, .. }) if is_tensor(element) => Some(cx.const_uint(*length)),
                Some(Inst::TypeRuntimeArray { element, .. }) if is_tensor(element) => Some(None),
                _ => {
                    cx.at(
                        i,
                        RuleId::DebugInfoTensor,
                        format_args!("Tensor %{} is neither a tensor nor a composite of tensors", tensor.0),
                    );
                    return;
                }
            };
            match (members, index) {
                (None, Some(_)) => cx.at(i, RuleId::DebugInfoTensor, "Index is given but Tensor is not a composite"),
                (Some(_), None) => cx.at(i, RuleId::DebugInfoTensor, "Tensor is a composite but Index is missing"),
                (Some(n), Some(idx)) => {
                    let constant = cx.def(*idx).is_some_and(Inst::is_constant);
                    let u32_type = cx
                        .type_of(*idx)
                        .and_then(|t| cx.scalar(t))
                        .is_some_and(|k| k == ScalarKind::Int { width: 32, signed: false });
                    if !constant {
                        cx.at(
                            i,
                            RuleId::DebugInfoTensor,
                            format_args!("Index %{} is not a constant instruction", idx.0),
                        );
                    } else if !u32_type {
                        cx.at(
                            i,
                            RuleId::DebugInfoTensor,
                            format_args!("Index %{} is not a 32-bit unsigned integer", idx.0),
                        );
                    } else if let (Some(v), Some(n)) = (cx.const_uint(*idx), n) {
                        if v >= n {
                            cx.at(
                                i,
                                RuleId::DebugInfoTensor,
                                format_args!("Index {v} is past the composite's {n} members"),
                            )
                        }
                    }
                }
                (None, None) => {}
            }
        }
    }
}

/// Runs the DebugInfo checks.
pub fn check(cx: &mut Cx<'_>) {
    // Nothing to check without an import of the set (any version).
    if !cx.sets.iter().any(|(_, k)| *k == ExtSet::GraphDebugInfo) {
        return;
    }
    let insts = cx.insts;
    // Imports and extended instructions, merged back into module order.
    let mut list: Vec<usize> = cx.lists.imports.iter().chain(&cx.lists.ext).copied().collect();
    list.sort_unstable();
    for (i, inst) in list.iter().filter_map(|&i| Some((i, insts.get(i)?))) {
        match inst {
            Inst::ExtInstImport { name, .. } => {
                if let Some(ver) = name.strip_prefix(GRAPH_DEBUG_SET_PREFIX) {
                    if !set_version(ver).is_some_and(|v| (1..=VERSION).contains(&v)) {
                        cx.at(
                            i,
                            RuleId::DebugInfoVersion,
                            format_args!("version \"{ver}\" is not an integer from 1 to {VERSION}"),
                        );
                    }
                }
            }
            Inst::ExtInst { set, number, .. } if cx.set_kind(*set) == Some(ExtSet::GraphDebugInfo) => cx.at(
                i,
                RuleId::DebugInfoInstruction,
                format_args!(
                    "instruction number {number} with these operands is not a NonSemantic.Graph.DebugInfo instruction"
                ),
            ),
            Inst::GraphDebug { ty, inst: d, .. } => check_inst(cx, i, *ty, d),
            _ => {}
        }
    }
}

//! Pipeline-creation rules (`Severity::Pipeline`): what the Vulkan
//! implementation checks when it creates a data-graph pipeline for one
//! graph entry point (`VUID-RuntimeSpirv-pNext-09919/09920`). They are not
//! module validity: a module whose graph interfaces or graph constants are
//! unshaped is valid, and only a pipeline for an entry point whose graph
//! uses them is refused. So they are checked for one named entry point, on
//! request, and never change a module's verdict.

use super::context::Cx;
use super::graph::graph_io;
use super::ids::for_each_operand;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;

/// The names of the module's graph entry points, in module order.
pub fn entry_point_names<'m>(cx: &Cx<'m>) -> Vec<&'m str> {
    cx.insts
        .iter()
        .filter_map(|i| match i {
            Inst::GraphEntryPoint { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect()
}

/// Whether a graph interface type only uses tensor types with Shape present
/// (directly, or as the element of an array or runtime array).
fn interface_shaped(cx: &Cx<'_>, ty: Id) -> bool {
    let tensor = match cx.def(ty) {
        Some(Inst::TypeArray { element, .. } | Inst::TypeRuntimeArray { element, .. }) => *element,
        _ => ty,
    };
    cx.tensor(tensor).is_some_and(|t| t.shaped)
}

/// Checks the pipeline rules for the first graph entry point named `entry`;
/// false when the module has none (nothing is checked then).
pub fn check(cx: &mut Cx<'_>, entry: &str) -> bool {
    let insts = cx.insts;
    let Some((at, graph)) = insts.iter().enumerate().find_map(|(i, inst)| match inst {
        Inst::GraphEntryPoint { graph, name, .. } if name == entry => Some((i, *graph)),
        _ => None,
    }) else {
        return false;
    };
    // A Graph operand that is not a graph is a module error reported elsewhere.
    let Some(Inst::Graph { ty, .. }) = cx.def(graph) else { return true };
    if let Some((inputs, outputs)) = graph_io(cx, *ty) {
        let sides = inputs.iter().map(|t| ("input", t)).enumerate();
        let sides = sides.chain(outputs.iter().map(|t| ("output", t)).enumerate());
        for (k, (side, &t)) in sides {
            if !interface_shaped(cx, t) {
                cx.at(
                    at,
                    RuleId::VulkanInterfaceShaped,
                    format_args!(
                        "a pipeline for graph entry point \"{entry}\": graph {side} {k} has type %{}, which is not (an array of) a tensor type with Shape present",
                        t.0
                    ),
                );
            }
        }
    }
    let Some(span) = cx.graphs.iter().find(|g| g.result == graph).cloned() else { return true };
    let end = span.end.unwrap_or(insts.len().saturating_sub(1));
    let mut reported: Vec<Id> = Vec::new();
    let mut operands: Vec<Id> = Vec::new();
    for inst in insts.get(span.begin..=end.min(insts.len().saturating_sub(1))).unwrap_or_default() {
        // Non-semantic instructions describe values; they do not use them.
        if matches!(inst, Inst::GraphDebug { .. }) {
            continue;
        }
        operands.clear();
        for_each_operand(inst, |id, _| operands.push(id));
        for &id in &operands {
            let Some(def) = cx.def_index(id) else { continue };
            let Some(Inst::GraphConstant { ty, graph_constant_id, .. }) = insts.get(def) else { continue };
            if reported.contains(&id) || cx.tensor(*ty).is_none_or(|t| t.shaped) {
                continue;
            }
            reported.push(id);
            cx.at(
                def,
                RuleId::VulkanGraphConstantShaped,
                format_args!(
                    "a pipeline for graph entry point \"{entry}\": graph constant %{} (GraphConstantID {graph_constant_id}), used by its graph, has a tensor type without Shape",
                    id.0
                ),
            );
        }
    }
    true
}

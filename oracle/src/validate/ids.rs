//! Result ids: each defined once, within the header's bound, defined before
//! use where SPIR-V requires it, type operands naming types, and graph-local
//! values used only inside their graph (by semantic instructions: a
//! non-semantic one may name them from anywhere after their definition).

use super::context::Cx;
use spirv::Op;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::opname::opcode_name;
use spvgraph_ir::rules::RuleId;

/// How an instruction uses an id operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// A type operand (Result Type, element type, member type...).
    Type,
    /// A value operand that must be defined earlier.
    Value,
    /// A debug/annotation target: forward references allowed, any scope.
    Target,
    /// The graph of OpGraphEntryPointARM: forward reference allowed.
    Graph,
    /// An operand of a NonSemantic.Graph.DebugInfo instruction (no forward references).
    Debug,
}

/// Calls `f` for every id operand of a typed instruction (not the result id).
/// `OpExtInst` of unknown sets and other raw instructions report only their
/// Result Type, since their operand words need not be ids.
pub fn for_each_operand(inst: &Inst, mut f: impl FnMut(Id, Use)) {
    match inst {
        Inst::Name { target, .. } | Inst::Decorate { target, .. } => f(*target, Use::Target),
        Inst::Line { file, .. } => f(*file, Use::Value),
        Inst::TypeArray { element, length, .. } => {
            f(*element, Use::Type);
            f(*length, Use::Value);
        }
        Inst::TypeRuntimeArray { element, .. } => f(*element, Use::Type),
        Inst::TypeStruct { members, .. } => members.iter().for_each(|m| f(*m, Use::Type)),
        Inst::TypePointer { pointee, .. } => f(*pointee, Use::Type),
        Inst::TypeTensor { element, rank, shape, .. } => {
            f(*element, Use::Type);
            rank.iter().chain(shape.iter()).for_each(|v| f(*v, Use::Value));
        }
        Inst::TypeGraph { io, .. } => io.iter().for_each(|t| f(*t, Use::Type)),
        Inst::ConstantTrue { ty, .. }
        | Inst::ConstantFalse { ty, .. }
        | Inst::Constant { ty, .. }
        | Inst::ConstantNull { ty, .. }
        | Inst::GraphConstant { ty, .. }
        | Inst::Graph { ty, .. } => f(*ty, Use::Type),
        Inst::ConstantComposite { ty, constituents, .. } => {
            f(*ty, Use::Type);
            constituents.iter().for_each(|c| f(*c, Use::Value));
        }
        Inst::ConstantCompositeReplicate { ty, constituent, .. } => {
            f(*ty, Use::Type);
            f(*constituent, Use::Value);
        }
        Inst::Variable { ty, initializer, .. } => {
            f(*ty, Use::Type);
            initializer.iter().for_each(|v| f(*v, Use::Value));
        }
        Inst::GraphEntryPoint { graph, interface, .. } => {
            f(*graph, Use::Graph);
            interface.iter().for_each(|v| f(*v, Use::Value));
        }
        Inst::GraphInput { ty, input_index, element_index, .. } => {
            f(*ty, Use::Type);
            f(*input_index, Use::Value);
            element_index.iter().for_each(|v| f(*v, Use::Value));
        }
        Inst::GraphSetOutput { value, output_index, element_index } => {
            f(*value, Use::Value);
            f(*output_index, Use::Value);
            element_index.iter().for_each(|v| f(*v, Use::Value));
        }
        Inst::Tosa { ty, set, args, .. } => {
            f(*ty, Use::Type);
            f(*set, Use::Value);
            args.iter().for_each(|a| f(*a, Use::Value));
        }
        Inst::GraphDebug { ty, set, inst: d, .. } => {
            f(*ty, Use::Type);
            f(*set, Use::Value);
            d.operand_ids().for_each(|a| f(a, Use::Debug));
        }
        Inst::ExtInst { ty, set, .. } => {
            f(*ty, Use::Type);
            f(*set, Use::Value);
        }
        Inst::CompositeExtract { ty, composite, .. } => {
            f(*ty, Use::Type);
            f(*composite, Use::Value);
        }
        Inst::Raw { .. } => {
            if let Some(ty) = inst.result_type() {
                f(ty, Use::Type);
            }
        }
        _ => {}
    }
}

/// Marks the instructions inside function definitions (empty when the
/// module has no functions: every lookup then reads "outside").
pub fn function_mask(insts: &[Inst]) -> Vec<bool> {
    if !insts.iter().any(|i| i.opcode() == Op::Function as u16) {
        return Vec::new();
    }
    let mut inside = false;
    insts
        .iter()
        .map(|inst| {
            let op = inst.opcode();
            if op == Op::Function as u16 {
                inside = true;
            }
            let here = inside;
            if op == Op::FunctionEnd as u16 {
                inside = false;
            }
            here
        })
        .collect()
}

/// Runs the id checks on operands (result ids are checked when the tables
/// are built); `skip_scope` lists instructions whose scope errors
/// are already explained by a layout error (they stand outside any graph).
pub fn check(cx: &mut Cx<'_>, in_function: &[bool], skip_scope: &[bool]) {
    let insts = cx.insts;
    let mut found: Vec<(usize, RuleId, String)> = Vec::new();
    // The operands of one instruction, gathered first so that the checks
    // below run in this loop rather than in a callback per operand.
    let mut operands: Vec<(Id, Use)> = Vec::with_capacity(16);
    for (i, inst) in insts.iter().enumerate() {
        if in_function.get(i).copied().unwrap_or(false) {
            continue;
        }
        let here = cx.graph_at(i);
        let check_scope = !skip_scope.get(i).copied().unwrap_or(false);
        operands.clear();
        for_each_operand(inst, |id, use_| operands.push((id, use_)));
        for &(id, use_) in &operands {
            let Some(facts) = cx.id_facts(id) else {
                found.push((i, RuleId::IdsUndefined, cx.text(format_args!("%{} is used but never defined", id.0))));
                continue;
            };
            let d = facts.def;
            if d >= i && !matches!(use_, Use::Target | Use::Graph) {
                let rule =
                    if use_ == Use::Debug { RuleId::DebugInfoForwardReference } else { RuleId::IdsForwardReference };
                found.push((
                    i,
                    rule,
                    cx.text(format_args!("%{} is used before its definition (instruction {d})", id.0)),
                ));
                continue;
            }
            if use_ == Use::Type && !facts.is_type {
                let what = cx.insts.get(d).map(|x| opcode_name(x.opcode())).unwrap_or_default();
                found.push((
                    i,
                    RuleId::IdsNotAType,
                    cx.text(format_args!("%{} is used as a type but is defined by {what}", id.0)),
                ));
                continue;
            }
            // Non-semantic operands describe values and may name a graph's
            // values from outside it (after OpGraphEndARM, as model-converter
            // writes DebugTensor).
            if matches!(use_, Use::Target | Use::Debug) || !check_scope {
                continue;
            }
            if let Some(g) = facts.local_graph {
                if here != Some(g) {
                    let place = match here {
                        Some(h) => format!("graph {h}"),
                        None => "module scope".to_string(),
                    };
                    found.push((
                        i,
                        RuleId::IdsGraphScope,
                        format!("%{} is local to graph {g} but used in {place}", id.0),
                    ));
                }
            }
        }
    }
    for (i, rule, message) in found {
        cx.at(i, rule, message);
    }
}

//! Mutators for the `ids.*` rules: result ids defined once and before use,
//! operands that are defined, type operands that are types, graph-local
//! values used only in their graph.

use super::layout::{parts, plain_types, uses};
use super::{no_bias, Edit, Mutator};
use crate::Config;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![
        Mutator {
            rule: RuleId::IdsUndefined,
            name: "undefined-operation-operand",
            bias: no_bias,
            apply: undefined_arg,
        },
        Mutator { rule: RuleId::IdsUndefined, name: "undefined-name-target", bias: no_bias, apply: undefined_name },
        Mutator {
            rule: RuleId::IdsDuplicate,
            name: "declaration-reuses-id",
            bias: no_bias,
            apply: declaration_reuses_id,
        },
        Mutator { rule: RuleId::IdsDuplicate, name: "operation-copy-same-id", bias: no_bias, apply: copy_same_id },
        Mutator {
            rule: RuleId::IdsForwardReference,
            name: "operation-before-operand",
            bias: no_bias,
            apply: operation_before_operand,
        },
        Mutator {
            rule: RuleId::IdsForwardReference,
            name: "declaration-before-operand",
            bias: no_bias,
            apply: declaration_before_operand,
        },
        Mutator {
            rule: RuleId::IdsGraphScope,
            name: "value-of-another-graph",
            bias: two_graphs,
            apply: value_of_another_graph,
        },
        Mutator { rule: RuleId::IdsNotAType, name: "null-of-non-type", bias: no_bias, apply: null_of_non_type },
    ]
}

/// Several graphs with few distinct tensor types, so that two graphs share one.
fn two_graphs(c: &mut Config) {
    c.min_graphs = c.min_graphs.max(2);
    c.max_graphs = c.max_graphs.max(c.min_graphs).max(3);
    c.max_rank = c.max_rank.min(2);
    c.max_dim = c.max_dim.min(3);
}

// ---- ids.undefined ------------------------------------------------------------------------

/// A dead copy of a TOSA instruction whose operand is an id nothing defines.
fn undefined_arg(e: &mut Edit) -> Option<()> {
    let ops = e.tosa_where(|_, _| true);
    let at = e.choose(&ops)?;
    let copy = e.dead_copy(at)?;
    let missing = e.fresh_id();
    let k = {
        let (_, _, _, args) = e.tosa_mut(copy)?;
        if args.is_empty() {
            return None;
        }
        args.len()
    };
    let k = e.int_in(0, k as i64 - 1) as usize;
    let (_, _, op, args) = e.tosa_mut(copy)?;
    *args.get_mut(k)? = missing;
    e.note(format!("{}: dead copy with operand {k} replaced by the undefined %{}", op.name(), missing.0));
    Some(())
}

/// An OpName (new, or an existing one retargeted) naming an undefined id.
fn undefined_name(e: &mut Edit) -> Option<()> {
    let missing = e.fresh_id();
    let names = e.indices(|i| matches!(i, Inst::Name { .. }));
    if !names.is_empty() && e.flip() {
        let at = e.choose(&names)?;
        if let Some(Inst::Name { target, .. }) = e.module.insts.get_mut(at) {
            *target = missing;
        }
        e.note(format!("OpName at instruction {at} retargeted to the undefined %{}", missing.0));
        return Some(());
    }
    // A new OpName goes after the strings and names, before the decorations.
    let at = e
        .module
        .insts
        .iter()
        .rposition(|i| matches!(i, Inst::Name { .. } | Inst::String { .. } | Inst::MemoryModel { .. }))?
        + 1;
    let name = format!("undefined_{}", e.int_in(0, 9999));
    e.insert(at, Inst::Name { target: missing, name: name.clone() });
    e.note(format!("OpName %{} \"{name}\" for an id nothing defines", missing.0));
    Some(())
}

// ---- ids.duplicate-definition ---------------------------------------------------------------

/// A new unused OpConstantNull whose result id is one an earlier
/// instruction already defines (the first definition keeps its uses).
fn declaration_reuses_id(e: &mut Edit) -> Option<()> {
    let types = plain_types(e);
    let ty = e.choose(&types)?;
    let end = e.globals_end();
    let ids: Vec<Id> = e.module.insts.iter().take(end).filter_map(Inst::result_id).collect();
    let id = e.choose(&ids)?;
    e.add_global(Inst::ConstantNull { ty, result: id });
    e.note(format!("unused OpConstantNull redefines %{}", id.0));
    Some(())
}

/// A copy of a TOSA instruction right after it with the same result id.
fn copy_same_id(e: &mut Edit) -> Option<()> {
    let ops = e.tosa_where(|_, _| true);
    let at = e.choose(&ops)?;
    let copy = e.module.insts.get(at)?.clone();
    let Inst::Tosa { result, op, .. } = &copy else { return None };
    let note = format!("{}: copy right after it with the same result id %{}", op.name(), result.0);
    e.insert(at + 1, copy);
    e.note(note);
    Some(())
}

// ---- ids.forward-reference --------------------------------------------------------------------

/// Moves a body instruction before the body instruction defining one of
/// its operands (still after the graph's inputs).
fn operation_before_operand(e: &mut Edit) -> Option<()> {
    let mut options: Vec<(usize, usize)> = Vec::new();
    for p in parts(e) {
        for x in p.body..p.outputs {
            let Some(inst) = e.module.insts.get(x) else { continue };
            if !matches!(inst, Inst::Tosa { .. } | Inst::CompositeExtract { .. }) {
                continue;
            }
            for d in p.body..x {
                let defines = e.module.insts.get(d).and_then(Inst::result_id).is_some_and(|id| uses(inst, id));
                if defines {
                    options.push((x, d));
                }
            }
        }
    }
    let (x, d) = e.choose(&options)?;
    let inst = e.module.insts.remove(x);
    e.module.insts.insert(d, inst);
    e.note(format!("body instruction {x} moved before instruction {d}, which defines one of its operands"));
    Some(())
}

/// The id operands of a global declaration that must be defined before it.
fn declaration_operands(inst: &Inst) -> Vec<Id> {
    match inst {
        Inst::TypeArray { element, length, .. } => vec![*element, *length],
        Inst::TypePointer { pointee, .. } => vec![*pointee],
        Inst::TypeTensor { element, rank, shape, .. } => {
            let mut v = vec![*element];
            v.extend(rank.iter().chain(shape.iter()).copied());
            v
        }
        Inst::TypeGraph { io, .. } => io.clone(),
        Inst::Constant { ty, .. } | Inst::ConstantNull { ty, .. } | Inst::ConstantTrue { ty, .. } => vec![*ty],
        Inst::ConstantFalse { ty, .. } | Inst::GraphConstant { ty, .. } => vec![*ty],
        Inst::ConstantComposite { ty, constituents, .. } => {
            let mut v = vec![*ty];
            v.extend(constituents.iter().copied());
            v
        }
        Inst::ConstantCompositeReplicate { ty, constituent, .. } => vec![*ty, *constituent],
        Inst::Variable { ty, .. } => vec![*ty],
        _ => Vec::new(),
    }
}

/// Moves a type, constant or variable declaration before the declaration
/// of one of its operands.
fn declaration_before_operand(e: &mut Edit) -> Option<()> {
    let mut options: Vec<(usize, usize)> = Vec::new();
    let end = e.globals_end();
    for x in 0..end {
        let Some(inst) = e.module.insts.get(x) else { continue };
        for id in declaration_operands(inst) {
            if let Some(d) = e.def_index(id).filter(|&d| d < x) {
                // The operand must itself be a declaration (not the import).
                if e.module.insts.get(d).is_some_and(|i| i.is_type() || i.is_constant()) {
                    options.push((x, d));
                }
            }
        }
    }
    let (x, d) = e.choose(&options)?;
    let inst = e.module.insts.remove(x);
    let what = spvgraph_ir::opname::opcode_name(inst.opcode());
    e.module.insts.insert(d, inst);
    e.note(format!("{what} moved from instruction {x} before instruction {d}, which defines one of its operands"));
    Some(())
}

// ---- ids.graph-scope ------------------------------------------------------------------------------

/// An operand of a body operation (or an output) of one graph replaced by
/// a value of the same type computed in an earlier graph.
fn value_of_another_graph(e: &mut Edit) -> Option<()> {
    let all = parts(e);
    if all.len() < 2 {
        return None;
    }
    // Values local to each graph: inputs, operation results, extracts.
    let insts = &e.module.insts;
    let values: Vec<(usize, Id, Id, usize)> = all
        .iter()
        .enumerate()
        .flat_map(|(g, p)| {
            (p.span.begin + 1..p.outputs).filter_map(move |k| match insts.get(k) {
                Some(
                    Inst::GraphInput { ty, result, .. }
                    | Inst::Tosa { ty, result, .. }
                    | Inst::CompositeExtract { ty, result, .. },
                ) => Some((g, *result, *ty, k)),
                _ => None,
            })
        })
        .collect();
    // (instruction, operand slot, replacement)
    let mut options: Vec<(usize, usize, Id)> = Vec::new();
    for (g, p) in all.iter().enumerate() {
        for k in p.body..p.span.end {
            let slots: Vec<Id> = match e.module.insts.get(k) {
                Some(Inst::Tosa { args, .. }) => args.clone(),
                Some(Inst::GraphSetOutput { value, .. }) => vec![*value],
                _ => continue,
            };
            for (slot, a) in slots.iter().enumerate() {
                // Only operands that already are graph-local values of this
                // graph: those positions accept non-constant values.
                let Some(&(_, _, aty, _)) = values.iter().find(|(h, id, _, _)| *h == g && id == a) else { continue };
                for &(h, other, oty, _) in &values {
                    if h < g && oty == aty {
                        options.push((k, slot, other));
                    }
                }
            }
        }
    }
    let (k, slot, other) = e.choose(&options)?;
    match e.module.insts.get_mut(k)? {
        Inst::Tosa { args, .. } => *args.get_mut(slot)? = other,
        Inst::GraphSetOutput { value, .. } => *value = other,
        _ => return None,
    }
    e.note(format!("operand {slot} of instruction {k} replaced by %{}, a value of an earlier graph", other.0));
    Some(())
}

// ---- ids.not-a-type -----------------------------------------------------------------------------------

/// A new unused OpConstantNull whose Result Type is a constant or variable.
fn null_of_non_type(e: &mut Edit) -> Option<()> {
    let end = e.globals_end();
    let non_types: Vec<Id> = e
        .module
        .insts
        .iter()
        .take(end)
        .filter(|i| i.is_constant() || matches!(i, Inst::Variable { .. }))
        .filter_map(Inst::result_id)
        .collect();
    let ty = e.choose(&non_types)?;
    let result = e.fresh_id();
    let what = e.def(ty).map(|i| spvgraph_ir::opname::opcode_name(i.opcode())).unwrap_or_default();
    e.add_global(Inst::ConstantNull { ty, result });
    e.note(format!("unused OpConstantNull %{} whose Result Type %{} is an {what}", result.0, ty.0));
    Some(())
}

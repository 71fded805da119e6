//! Mutators for the `layout.*` rules (logical layout of the module and of
//! the graph section).

use super::{no_bias, Edit, GraphSpan, Mutator};
use spvgraph_ir::inst::{ExtSet, Id, Inst};
use spvgraph_ir::rules::RuleId;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![
        Mutator { rule: RuleId::LayoutMemoryModel, name: "drop-memory-model", bias: no_bias, apply: drop_memory_model },
        Mutator {
            rule: RuleId::LayoutMemoryModel,
            name: "duplicate-memory-model",
            bias: no_bias,
            apply: duplicate_memory_model,
        },
        Mutator {
            rule: RuleId::LayoutSectionOrder,
            name: "move-to-later-section",
            bias: no_bias,
            apply: move_to_later_section,
        },
        Mutator {
            rule: RuleId::LayoutSectionOrder,
            name: "annotation-among-globals",
            bias: no_bias,
            apply: annotation_among_globals,
        },
        Mutator { rule: RuleId::LayoutEntryPoint, name: "strip-graphs", bias: no_bias, apply: strip_graphs },
        Mutator {
            rule: RuleId::LayoutGraphSectionOutsideGraph,
            name: "declaration-in-graph-section",
            bias: no_bias,
            apply: declaration_in_graph_section,
        },
        Mutator {
            rule: RuleId::LayoutGraphNested,
            name: "graph-inside-graph",
            bias: no_bias,
            apply: graph_inside_graph,
        },
        Mutator {
            rule: RuleId::LayoutGraphUnterminated,
            name: "drop-last-graph-end",
            bias: no_bias,
            apply: drop_last_graph_end,
        },
        Mutator {
            rule: RuleId::LayoutGraphUnterminated,
            name: "stray-graph-end",
            bias: no_bias,
            apply: stray_graph_end,
        },
        Mutator {
            rule: RuleId::LayoutGraphBodyInstruction,
            name: "foreign-instruction-in-body",
            bias: no_bias,
            apply: foreign_in_body,
        },
        Mutator {
            rule: RuleId::LayoutGraphInputPosition,
            name: "input-after-body-instruction",
            bias: no_bias,
            apply: input_after_body,
        },
        Mutator {
            rule: RuleId::LayoutGraphInputPosition,
            name: "operation-between-inputs",
            bias: no_bias,
            apply: operation_between_inputs,
        },
        Mutator {
            rule: RuleId::LayoutGraphOutputPosition,
            name: "output-before-body-instruction",
            bias: no_bias,
            apply: output_before_body,
        },
        Mutator {
            rule: RuleId::LayoutGraphOutputPosition,
            name: "operation-after-output",
            bias: no_bias,
            apply: operation_after_output,
        },
        Mutator {
            rule: RuleId::LayoutTosaOutsideGraph,
            name: "operation-among-globals",
            bias: no_bias,
            apply: operation_among_globals,
        },
    ]
}

fn drop_memory_model(e: &mut Edit) -> Option<()> {
    let at = e.module.insts.iter().position(|i| matches!(i, Inst::MemoryModel { .. }))?;
    e.module.insts.remove(at);
    e.note("removed OpMemoryModel");
    Some(())
}

fn duplicate_memory_model(e: &mut Edit) -> Option<()> {
    let at = e.module.insts.iter().position(|i| matches!(i, Inst::MemoryModel { .. }))?;
    let copy = e.module.insts.get(at)?.clone();
    e.module.insts.insert(at + 1, copy);
    e.note("OpMemoryModel twice");
    Some(())
}

// ---- shared helpers (also used by the ids mutators) ------------------------------

/// A graph definition split into its parts: inputs are `begin+1..body`,
/// body instructions `body..outputs`, outputs `outputs..end`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Parts {
    pub span: GraphSpan,
    /// Index of the first instruction after the inputs.
    pub body: usize,
    /// Index of the first OpGraphSetOutputARM (or `end`).
    pub outputs: usize,
}

/// The parts of every graph definition of a generated module (inputs
/// first, outputs last).
pub(super) fn parts(e: &Edit) -> Vec<Parts> {
    e.graphs()
        .into_iter()
        .map(|span| {
            let insts = &e.module.insts;
            let mut body = span.begin + 1;
            while body < span.end && matches!(insts.get(body), Some(Inst::GraphInput { .. })) {
                body += 1;
            }
            let mut outputs = body;
            while outputs < span.end && !matches!(insts.get(outputs), Some(Inst::GraphSetOutput { .. })) {
                outputs += 1;
            }
            Parts { span, body, outputs }
        })
        .collect()
}

/// Whether `inst` has `id` among its operands (result type and result id
/// excluded). Exact for graph-body instructions; for others, literal words
/// may alias ids (a false "uses" only makes callers skip an option).
pub(super) fn uses(inst: &Inst, id: Id) -> bool {
    match inst {
        Inst::Tosa { set, args, .. } => *set == id || args.contains(&id),
        Inst::GraphDebug { set, inst: d, .. } => *set == id || d.operands().contains(&id),
        Inst::CompositeExtract { composite, .. } => *composite == id,
        Inst::GraphInput { input_index, element_index, .. } => *input_index == id || *element_index == Some(id),
        Inst::GraphSetOutput { value, output_index, element_index } => {
            *value == id || *output_index == id || *element_index == Some(id)
        }
        _ => {
            let mut words = Vec::new();
            inst.encode_operands(&mut words);
            let skip = usize::from(inst.result_type().is_some()) + usize::from(inst.result_id().is_some());
            inst.result_id() != Some(id) && words.iter().skip(skip).any(|&w| w == id.0)
        }
    }
}

/// Whether `inst` is a non-semantic instruction (NonSemantic.* set): it
/// does not count for the input and output position rules.
fn is_non_semantic(e: &Edit, inst: &Inst) -> bool {
    match inst {
        Inst::GraphDebug { .. } => true,
        Inst::ExtInst { set, .. } => {
            matches!(e.def(*set), Some(Inst::ExtInstImport { name, .. }) if ExtSet::from_import_name(name).is_non_semantic())
        }
        _ => false,
    }
}

/// Whether some instruction in `range` is semantic.
fn any_semantic(e: &Edit, range: std::ops::Range<usize>) -> bool {
    e.module.insts.get(range).is_some_and(|s| s.iter().any(|i| !is_non_semantic(e, i)))
}

/// Index of the first instruction of the graph section (the first graph
/// entry point or graph definition).
pub(super) fn graph_section_start(e: &Edit) -> Option<usize> {
    e.module.insts.iter().position(|i| matches!(i, Inst::GraphEntryPoint { .. } | Inst::Graph { .. }))
}

/// Insertion points in the graph section that are outside every graph body
/// and after at least one graph-section instruction.
fn outside_bodies(e: &Edit) -> Vec<usize> {
    let Some(start) = graph_section_start(e) else { return Vec::new() };
    let spans = e.graphs();
    (start + 1..=e.module.insts.len()).filter(|&p| spans.iter().all(|g| p <= g.begin || p > g.end)).collect()
}

/// A ranked and shaped tensor type or scalar integer type of the module,
/// for fresh unused declarations.
pub(super) fn plain_types(e: &Edit) -> Vec<Id> {
    e.module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::TypeTensor { result, rank: Some(_), shape: Some(_), .. } | Inst::TypeInt { result, .. } => {
                Some(*result)
            }
            _ => None,
        })
        .collect()
}

// ---- layout.section-order ------------------------------------------------------------

/// The logical-layout section of a module-level instruction (SPIR-V 2.4):
/// capabilities 0, extensions 1, imports 2, memory model 3, debug strings 6,
/// names 7, annotations 9, declarations 10, graph section 12.
fn section(inst: &Inst) -> Option<u8> {
    Some(match inst {
        Inst::Capability(_) => 0,
        Inst::Extension(_) => 1,
        Inst::ExtInstImport { .. } => 2,
        Inst::MemoryModel { .. } => 3,
        Inst::String { .. } => 6,
        Inst::Name { .. } => 7,
        Inst::Decorate { .. } => 9,
        Inst::Variable { .. } => 10,
        i if i.is_type() || i.is_constant() => 10,
        Inst::GraphEntryPoint { .. } | Inst::Graph { .. } => 12,
        _ => return None,
    })
}

/// Moves a capability, extension, import, memory model, debug string, name
/// or decoration after an instruction of a later section (but before the
/// graph section, where it would break `layout.graph-section.outside-graph`).
fn move_to_later_section(e: &mut Edit) -> Option<()> {
    let movable = e.indices(|i| section(i).is_some_and(|s| s < 10));
    let from = e.choose(&movable)?;
    let s = section(e.module.insts.get(from)?)?;
    let inst = e.module.insts.remove(from);
    let first_later = e.module.insts.iter().position(|i| section(i).is_some_and(|t| t > s && t < 12));
    let (Some(first_later), Some(end)) = (first_later, graph_section_start(e)) else {
        e.module.insts.insert(from, inst);
        return None;
    };
    if first_later >= end {
        e.module.insts.insert(from, inst);
        return None;
    }
    let to = e.int_in(first_later as i64 + 1, end as i64) as usize;
    let what = spvgraph_ir::opname::opcode_name(inst.opcode());
    let after = e.module.insts.get(to - 1).map(|i| spvgraph_ir::opname::opcode_name(i.opcode())).unwrap_or_default();
    e.module.insts.insert(to, inst);
    e.note(format!("{what} moved from instruction {from} to {to}, after {after}"));
    Some(())
}

/// Moves an OpDecorate among the type, constant and variable declarations.
fn annotation_among_globals(e: &mut Edit) -> Option<()> {
    let decorations = e.indices(|i| matches!(i, Inst::Decorate { .. }));
    let from = e.choose(&decorations)?;
    let inst = e.module.insts.remove(from);
    let first_global = e.module.insts.iter().position(|i| section(i) == Some(10));
    let (Some(first_global), Some(end)) = (first_global, graph_section_start(e)) else {
        e.module.insts.insert(from, inst);
        return None;
    };
    let to = e.int_in(first_global as i64 + 1, end as i64) as usize;
    e.module.insts.insert(to, inst);
    e.note(format!("OpDecorate moved from instruction {from} among the declarations (instruction {to})"));
    Some(())
}

// ---- layout.entry-point ----------------------------------------------------------------

/// GraphARM exempts a module from having an OpEntryPoint, so the only way
/// to break the rule in a graph module is to make it a module without
/// graphs: every graph construct goes, with the GraphARM capability (and,
/// sometimes, SPV_ARM_graph), leaving types, constants and variables with
/// no entry point at all.
fn strip_graphs(e: &mut Edit) -> Option<()> {
    const GRAPH_ARM: u32 = 4191;
    let spans = e.graphs();
    if spans.is_empty() {
        return None;
    }
    let mut keep: Vec<bool> = Vec::with_capacity(e.module.insts.len());
    let mut removed: Vec<Id> = Vec::new();
    for (k, inst) in e.module.insts.iter().enumerate() {
        let in_graph = spans.iter().any(|g| g.begin <= k && k <= g.end);
        let graph_only = matches!(
            inst,
            Inst::TypeGraph { .. }
                | Inst::GraphConstant { .. }
                | Inst::GraphEntryPoint { .. }
                | Inst::GraphDebug { .. }
                | Inst::Tosa { .. }
        ) || *inst == Inst::Capability(GRAPH_ARM);
        let gone = in_graph || graph_only;
        if gone {
            removed.extend(inst.result_id());
        }
        keep.push(!gone);
    }
    let drop_extension = e.flip();
    let mut k = 0;
    e.module.insts.retain(|inst| {
        let kept = keep.get(k).copied().unwrap_or(true);
        k += 1;
        // NonSemantic.Graph.DebugInfo requires SPV_ARM_graph: its (now
        // unused) import goes with the extension.
        let debug_import = matches!(inst, Inst::ExtInstImport { name, .. } if ExtSet::from_import_name(name) == ExtSet::GraphDebugInfo);
        kept && !(drop_extension && (*inst == Inst::Extension("SPV_ARM_graph".into()) || debug_import))
    });
    // Names and decorations of what was removed go too (else: ids.undefined).
    e.module.insts.retain(|inst| match inst {
        Inst::Name { target, .. } | Inst::Decorate { target, .. } => !removed.contains(target),
        _ => true,
    });
    e.note(format!(
        "removed the {} graph(s), their types, constants and entry points, and the GraphARM capability{}",
        spans.len(),
        if drop_extension { " and SPV_ARM_graph" } else { "" }
    ));
    Some(())
}

// ---- layout.graph-section.outside-graph -------------------------------------------------

fn declaration_in_graph_section(e: &mut Edit) -> Option<()> {
    let types = plain_types(e);
    let ty = e.choose(&types)?;
    let points = outside_bodies(e);
    let at = e.choose(&points)?;
    let result = e.fresh_id();
    e.insert(at, Inst::ConstantNull { ty, result });
    e.note(format!("unused OpConstantNull %{} placed in the graph section (instruction {at})", result.0));
    Some(())
}

// ---- layout.graph.nested / unterminated ----------------------------------------------------

/// A new, empty OpGraphARM right before a graph definition, which is then
/// nested in it. The existing definition keeps its id, so its entry points
/// and DebugGraph still describe the graph holding the inputs, body and
/// outputs, and no value crosses a graph boundary.
fn graph_inside_graph(e: &mut Edit) -> Option<()> {
    let spans = e.graphs();
    let g = e.choose(&spans)?;
    let result = e.fresh_id();
    e.insert(g.begin, Inst::Graph { ty: g.ty, result });
    e.note(format!("OpGraphARM %{} opened right before OpGraphARM %{}, which nests in it", result.0, g.id.0));
    Some(())
}

fn drop_last_graph_end(e: &mut Edit) -> Option<()> {
    let last = *e.graphs().last()?;
    // Anything after the last graph would be read as part of its body.
    if last.end + 1 != e.module.insts.len() {
        return None;
    }
    e.module.insts.remove(last.end);
    e.note(format!("OpGraphEndARM of the last graph %{} removed", last.id.0));
    Some(())
}

fn stray_graph_end(e: &mut Edit) -> Option<()> {
    let points = outside_bodies(e);
    let at = e.choose(&points)?;
    e.insert(at, Inst::GraphEnd);
    e.note(format!("an OpGraphEndARM outside any graph definition (instruction {at})"));
    Some(())
}

// ---- graph bodies --------------------------------------------------------------------------

/// An instruction a graph body cannot hold, between the inputs and the outputs.
fn foreign_in_body(e: &mut Edit) -> Option<()> {
    let all = parts(e);
    let p = e.choose(&all)?;
    let at = e.int_in(p.body as i64, p.outputs as i64) as usize;
    let types = plain_types(e);
    let strings = e.results_where(|i| matches!(i, Inst::String { .. }));
    let kind = e.int_in(0, 3);
    let file = e.choose(&strings);
    let ty = e.choose(&types);
    let inst = match (kind, file, ty) {
        (1, Some(file), _) => {
            let line = e.int_in(1, 1000) as u32;
            Inst::Line { file, line, column: e.int_in(0, 80) as u32 }
        }
        (2, _, Some(ty)) => Inst::ConstantNull { ty, result: e.fresh_id() },
        // OpUndef (opcode 1): Result Type, Result.
        (3, _, Some(ty)) => Inst::Raw { opcode: 1, operands: vec![ty.0, e.fresh_id().0] },
        _ => Inst::NoLine,
    };
    let what = spvgraph_ir::opname::opcode_name(inst.opcode());
    e.insert(at, inst);
    e.note(format!("{what} inserted in the body of graph %{} (instruction {at})", p.span.id.0));
    Some(())
}

/// Moves an input after a body instruction that does not use it (so no
/// use comes before its definition), before the outputs. At least one of
/// the instructions it moves past is semantic: non-semantic ones may stand
/// between inputs.
fn input_after_body(e: &mut Edit) -> Option<()> {
    let mut options: Vec<(usize, usize)> = Vec::new();
    for p in parts(e) {
        for input in p.span.begin + 1..p.body {
            let Some(id) = e.module.insts.get(input).and_then(Inst::result_id) else { continue };
            // Insert after body instruction `k` (k in body..outputs) if nothing in input+1..=k uses the input.
            for k in p.body..p.outputs {
                if e.module.insts.get(input + 1..=k).is_some_and(|s| s.iter().any(|i| uses(i, id))) {
                    break;
                }
                if any_semantic(e, p.body..k + 1) {
                    options.push((input, k));
                }
            }
        }
    }
    let (input, k) = e.choose(&options)?;
    let inst = e.module.insts.remove(input);
    // `k` shifted down by one: insert right after it.
    e.module.insts.insert(k, inst);
    e.note(format!("OpGraphInputARM moved from instruction {input} to after body instruction {k}"));
    Some(())
}

/// A dead copy of a body operation between two inputs, where every operand
/// it reads is already defined (a constant, or an earlier input).
fn operation_between_inputs(e: &mut Edit) -> Option<()> {
    let mut options: Vec<(usize, usize)> = Vec::new();
    for p in parts(e) {
        for op in p.body..p.outputs {
            let Some(Inst::Tosa { args, .. }) = e.module.insts.get(op) else { continue };
            // Insert before input `k` (k in begin+2..body): after at least one input.
            for k in p.span.begin + 2..p.body {
                if args.iter().all(|a| e.def_index(*a).is_some_and(|d| d < k)) {
                    options.push((op, k));
                }
            }
        }
    }
    let (op, k) = e.choose(&options)?;
    let mut copy = e.module.insts.get(op)?.clone();
    let fresh = e.fresh_id();
    if let Inst::Tosa { result, .. } = &mut copy {
        *result = fresh;
    }
    e.insert(k, copy);
    e.note(format!("dead copy %{} of body instruction {op} placed between two inputs (instruction {k})", fresh.0));
    Some(())
}

/// Moves an output before a body instruction, after its value's definition,
/// with at least one semantic instruction between it and the other outputs
/// (non-semantic ones may stand between outputs).
fn output_before_body(e: &mut Edit) -> Option<()> {
    let mut options: Vec<(usize, usize)> = Vec::new();
    for p in parts(e) {
        for out in p.outputs..p.span.end {
            let Some(Inst::GraphSetOutput { value, .. }) = e.module.insts.get(out) else { continue };
            let def = e.def_index(*value).unwrap_or(0);
            // Insert before body instruction `k`: after the inputs and after the value's definition.
            for k in p.body..p.outputs {
                if k > def && any_semantic(e, k..p.outputs) {
                    options.push((out, k));
                }
            }
        }
    }
    let (out, k) = e.choose(&options)?;
    let inst = e.module.insts.remove(out);
    e.module.insts.insert(k, inst);
    e.note(format!("OpGraphSetOutputARM moved from instruction {out} to before body instruction {k}"));
    Some(())
}

/// A dead copy of a body operation after an output (between outputs or
/// right before OpGraphEndARM).
fn operation_after_output(e: &mut Edit) -> Option<()> {
    let mut options: Vec<(usize, usize)> = Vec::new();
    for p in parts(e) {
        if p.outputs >= p.span.end {
            continue;
        }
        for op in p.body..p.outputs {
            if matches!(e.module.insts.get(op), Some(Inst::Tosa { .. })) {
                for at in p.outputs + 1..=p.span.end {
                    options.push((op, at));
                }
            }
        }
    }
    let (op, at) = e.choose(&options)?;
    let mut copy = e.module.insts.get(op)?.clone();
    let fresh = e.fresh_id();
    if let Inst::Tosa { result, .. } = &mut copy {
        *result = fresh;
    }
    e.insert(at, copy);
    e.note(format!("dead copy %{} of body instruction {op} placed after an output (instruction {at})", fresh.0));
    Some(())
}

// ---- layout.tosa-outside-graph ---------------------------------------------------------------

/// A copy of a TOSA instruction among the global declarations; operands
/// local to a graph are replaced by null constants of their types.
fn operation_among_globals(e: &mut Edit) -> Option<()> {
    let ops = e.tosa_where(|_, _| true);
    let at = e.choose(&ops)?;
    let Some(Inst::Tosa { ty, set, op, args, .. }) = e.module.insts.get(at).cloned() else { return None };
    // Multi-result operators (struct results) are left out.
    e.shape_of(ty)?;
    // Which operands are local to a graph (and their types), found before
    // any declaration is added (adding shifts the graph section).
    let spans = e.graphs();
    let mut local: Vec<Option<Id>> = Vec::with_capacity(args.len());
    for &a in &args {
        let inside = e.def_index(a).is_some_and(|d| spans.iter().any(|g| d > g.begin && d < g.end));
        if inside {
            let aty = e.def(a)?.result_type()?;
            // Null constants of unshaped tensors are not valid.
            e.shape_of(aty)?;
            local.push(Some(aty));
        } else {
            local.push(None);
        }
    }
    let mut new_args = Vec::with_capacity(args.len());
    let mut nulls = 0;
    for (a, aty) in args.into_iter().zip(local) {
        match aty {
            Some(aty) => {
                let result = e.fresh_id();
                e.add_global(Inst::ConstantNull { ty: aty, result });
                new_args.push(result);
                nulls += 1;
            }
            None => new_args.push(a),
        }
    }
    let result = e.fresh_id();
    let latest = std::iter::once(ty)
        .chain(new_args.iter().copied())
        .chain(std::iter::once(set))
        .filter_map(|id| e.def_index(id))
        .max()?;
    let end = e.globals_end();
    if latest >= end {
        return None;
    }
    let at = e.int_in(latest as i64 + 1, end as i64) as usize;
    e.insert(at, Inst::Tosa { ty, result, set, op, args: new_args });
    e.note(format!(
        "{}: copy among the global declarations (instruction {at}), {nulls} operand(s) made null",
        op.name()
    ));
    Some(())
}

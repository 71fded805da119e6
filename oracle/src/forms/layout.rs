//! Forms of the module's layout: ids renumbered, declarations and the graph
//! body reordered, debug information taken out or put in.

use super::edit::{self, Case, Made};
use super::FormError;
use spirv::Op;
use spvgraph_ir::decls;
use spvgraph_ir::ids;
use spvgraph_ir::inst::{ExtSet, GraphDebugInst, Id, Inst};
use spvgraph_ir::Module;
use std::collections::{HashMap, HashSet};

/// The import name of the debug-information set this form writes.
const DEBUG_SET: &str = "NonSemantic.Graph.DebugInfo.1";

/// [`super::Form::Renumbered`]: the k-th id defined (in module order) gets
/// the k-th id from the top, so every id changes and the bound stays tight.
pub(super) fn renumbered(mut case: Case) -> Result<Made, FormError> {
    // Raw instructions and unknown extended instructions keep their
    // operands as words, so their ids cannot be told from literals.
    if case.module.insts.iter().any(ids::is_opaque) {
        return Err(FormError::NotApplicable("the module has instructions whose ids cannot be renumbered".into()));
    }
    let defined: Vec<Id> = case.module.insts.iter().filter_map(Inst::result_id).collect();
    let n = defined.len() as u32;
    let map: HashMap<Id, Id> = defined.iter().enumerate().map(|(k, &id)| (id, Id(n - k as u32))).collect();
    if map.iter().all(|(a, b)| a == b) {
        return Err(FormError::NothingToChange);
    }
    for inst in &mut case.module.insts {
        if let Some(r) = inst.result_id_mut() {
            if let Some(&to) = map.get(r) {
                *r = to;
            }
        }
        ids::replace_uses(inst, &map);
    }
    case.module.header.bound = n + 1;
    Made::one(case)
}

/// Orders `insts` so that each follows what it refers to among them,
/// starting from their reverse order (so that the result differs from the
/// input wherever the dependencies allow). `false` when they cannot be
/// ordered (a cycle: only an invalid module has one).
fn reverse_topologically(insts: &mut [Inst]) -> bool {
    insts.reverse();
    let local: HashMap<Id, usize> = insts.iter().enumerate().filter_map(|(k, i)| Some((i.result_id()?, k))).collect();
    let deps: Vec<Vec<usize>> = insts
        .iter()
        .map(|i| {
            let mut d = Vec::new();
            ids::for_each_id(i, |id| d.extend(local.get(id).copied()));
            d
        })
        .collect();
    let n = insts.len();
    let mut state = vec![0u8; n];
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some((p, next)) = stack.pop() {
            if next == 0 {
                match state[p] {
                    0 => state[p] = 1,
                    _ => continue,
                }
            }
            match deps[p].get(next) {
                Some(&q) => {
                    stack.push((p, next + 1));
                    match state[q] {
                        0 => stack.push((q, 0)),
                        1 => return false,
                        _ => {}
                    }
                }
                None => {
                    state[p] = 2;
                    order.push(p);
                }
            }
        }
    }
    let sorted: Vec<Inst> = order.iter().filter_map(|&k| insts.get(k).cloned()).collect();
    for (slot, inst) in insts.iter_mut().zip(sorted) {
        *slot = inst;
    }
    true
}

/// Reverses every maximal run of instructions at `range` that `pick` selects.
fn reverse_runs(insts: &mut [Inst], pick: impl Fn(&Inst) -> bool) {
    let mut k = 0;
    while k < insts.len() {
        if !pick(&insts[k]) {
            k += 1;
            continue;
        }
        let start = k;
        while k < insts.len() && pick(&insts[k]) {
            k += 1;
        }
        insts[start..k].reverse();
    }
}

/// [`super::Form::Reordered`].
pub(super) fn reordered(mut case: Case) -> Result<Made, FormError> {
    let before = case.module.insts.clone();
    let insts = &mut case.module.insts;
    // Names and decorations: any order.
    reverse_runs(insts, |i| matches!(i, Inst::Name { .. }));
    reverse_runs(insts, |i| matches!(i, Inst::Decorate { .. }));
    // Types, constants and variables: another order with each after what it needs.
    let is_decl = |i: &Inst| i.is_type() || i.is_constant() || matches!(i, Inst::Variable { .. });
    if let Some(begin) = insts.iter().position(is_decl) {
        let end = decls::declaration_end(insts).max(begin);
        if insts[begin..end].iter().all(is_decl) && !reverse_topologically(&mut insts[begin..end]) {
            return Err(FormError::BadCase("the declarations refer to each other in a cycle".into()));
        }
    }
    // Each graph body: another topological order of its operators.
    let graph = edit::graph_of(&case.module, &case.entry)?;
    let (begin, end) = edit::span(&case.module, graph)?;
    let insts = &mut case.module.insts;
    let body_begin = (begin + 1..end).find(|&k| !matches!(insts[k], Inst::GraphInput { .. })).unwrap_or(end);
    let body_end = (body_begin..end).find(|&k| matches!(insts[k], Inst::GraphSetOutput { .. })).unwrap_or(end);
    let body_only =
        insts[body_begin..body_end].iter().all(|i| !matches!(i, Inst::GraphInput { .. } | Inst::GraphSetOutput { .. }));
    if body_only && !reverse_topologically(&mut insts[body_begin..body_end]) {
        return Err(FormError::BadCase("the graph body refers to itself in a cycle".into()));
    }
    if case.module.insts == before {
        return Err(FormError::NothingToChange);
    }
    Made::one(case)
}

/// Whether an instruction only carries debug information.
fn is_debug(inst: &Inst, non_semantic: &HashSet<Id>) -> bool {
    const DEBUG_OPS: [Op; 6] =
        [Op::MemberName, Op::Source, Op::SourceContinued, Op::SourceExtension, Op::ModuleProcessed, Op::NoLine];
    match inst {
        Inst::Name { .. } | Inst::Line { .. } | Inst::NoLine | Inst::GraphDebug { .. } => true,
        Inst::ExtInst { set, .. } => non_semantic.contains(set),
        Inst::ExtInstImport { result, .. } => non_semantic.contains(result),
        Inst::Raw { opcode, .. } => DEBUG_OPS.iter().any(|op| *op as u16 == *opcode),
        _ => false,
    }
}

/// [`super::Form::Stripped`].
pub(super) fn stripped(mut case: Case) -> Result<Made, FormError> {
    let dead = edit::dead_before(&case.module);
    let non_semantic: HashSet<Id> = case
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::ExtInstImport { result, name } if ExtSet::from_import_name(name).is_non_semantic() => Some(*result),
            _ => None,
        })
        .collect();
    let before = case.module.insts.len();
    case.module.insts.retain(|i| !is_debug(i, &non_semantic));
    if !non_semantic.is_empty() {
        case.module.insts.retain(|i| !matches!(i, Inst::Extension(e) if e == "SPV_KHR_non_semantic_info"));
    }
    if case.module.insts.len() == before {
        return Err(FormError::NothingToChange);
    }
    // Strings only debug information used go with it.
    edit::tidy(&mut case.module, &dead);
    let referenced: HashSet<Id> = {
        let mut r = HashSet::new();
        for i in &case.module.insts {
            ids::for_each_id(i, |id| {
                r.insert(*id);
            });
        }
        r
    };
    case.module.insts.retain(|i| !matches!(i, Inst::String { result, .. } if !referenced.contains(result)));
    Made::one(case)
}

/// Where new debug-section instructions go: strings before the module's
/// first name (`names` false), names after its last one (`names` true),
/// both before the annotations and declarations.
fn debug_position(m: &Module, names: bool) -> usize {
    let is_name = |i: &Inst| {
        matches!(i, Inst::Name { .. }) || matches!(i, Inst::Raw { opcode, .. } if *opcode == Op::MemberName as u16)
    };
    let after_debug = |i: &Inst| {
        matches!(i, Inst::Decorate { .. } | Inst::Variable { .. } | Inst::GraphEntryPoint { .. } | Inst::Graph { .. })
            || i.is_type()
            || i.is_constant()
            || matches!(i, Inst::Raw { opcode, .. } if *opcode == Op::ModuleProcessed as u16 || *opcode == Op::Function as u16)
    };
    m.insts.iter().position(|i| after_debug(i) || (!names && is_name(i))).unwrap_or(m.insts.len())
}

/// [`super::Form::DebugInfo`].
pub(super) fn debug_info(mut case: Case) -> Result<Made, FormError> {
    let m = &mut case.module;
    let has_debug = m.insts.iter().any(
        |i| matches!(i, Inst::ExtInstImport { name, .. } if ExtSet::from_import_name(name) == ExtSet::GraphDebugInfo),
    );
    if has_debug {
        return Err(FormError::NotApplicable("the module has NonSemantic.Graph.DebugInfo already".into()));
    }
    let graph = edit::graph_of(m, &case.entry)?;
    decls::extension(m, "SPV_KHR_non_semantic_info");
    let set = decls::fresh_id(m);
    let import_at = m
        .insts
        .iter()
        .rposition(|i| matches!(i, Inst::ExtInstImport { .. } | Inst::Extension(_) | Inst::Capability(_)))
        .map_or(0, |k| k + 1);
    m.insts.insert(import_at, Inst::ExtInstImport { result: set, name: DEBUG_SET.to_string() });
    let void = match m.insts.iter().find_map(|i| match i {
        Inst::TypeVoid { result } => Some(*result),
        _ => None,
    }) {
        Some(v) => v,
        None => {
            let v = decls::fresh_id(m);
            decls::push_declaration(m, Inst::TypeVoid { result: v });
            v
        }
    };
    // What the graph holds: its inputs and operators.
    let (begin, end) = edit::span(m, graph)?;
    let inputs: Vec<Id> = m.insts[begin..end]
        .iter()
        .filter_map(|i| match i {
            Inst::GraphInput { result, .. } => Some(*result),
            _ => None,
        })
        .collect();
    let ops: Vec<(Id, String)> = m.insts[begin..end]
        .iter()
        .filter_map(|i| match i {
            Inst::Tosa { result, op, .. } => Some((*result, op.name().to_ascii_lowercase())),
            _ => None,
        })
        .collect();
    // Strings, then names.
    let mut strings = Vec::new();
    let mut string = |m: &mut Module, text: String| {
        let id = decls::fresh_id(m);
        strings.push(Inst::String { result: id, text });
        id
    };
    let graph_name = string(m, format!("{}_graph", case.entry));
    let input_names: Vec<Id> = (0..inputs.len()).map(|k| string(m, format!("input_{k}"))).collect();
    let op_names: Vec<Id> = ops.iter().enumerate().map(|(k, (_, op))| string(m, format!("{op}_{k}"))).collect();
    let at = debug_position(m, false);
    let count = strings.len();
    m.insts.splice(at..at, strings);
    let mut names = vec![Inst::Name { target: graph, name: format!("{}_graph", case.entry) }];
    names.extend(inputs.iter().enumerate().map(|(k, &id)| Inst::Name { target: id, name: format!("input_{k}") }));
    names.extend(ops.iter().enumerate().map(|(k, (id, op))| Inst::Name { target: *id, name: format!("{op}_{k}") }));
    let at = debug_position(m, true).max(at + count);
    m.insts.splice(at..at, names);
    // The debug instructions: DebugGraph and DebugTensors after the inputs,
    // a DebugOperation after each operator.
    let (begin, end) = edit::span(m, graph)?;
    let debug_graph = decls::fresh_id(m);
    let mut body: Vec<Inst> = Vec::with_capacity(end - begin + ops.len() + inputs.len() + 1);
    let mut prologue = vec![Inst::GraphDebug {
        ty: void,
        result: debug_graph,
        set,
        inst: GraphDebugInst::Graph { graph, name: graph_name },
    }];
    for (&tensor, &name) in inputs.iter().zip(&input_names) {
        let result = decls::fresh_id(m);
        prologue.push(Inst::GraphDebug {
            ty: void,
            result,
            set,
            inst: GraphDebugInst::Tensor { tensor, name, index: None },
        });
    }
    let mut op_name = ops.iter().map(|(id, _)| *id).zip(op_names).collect::<HashMap<Id, Id>>();
    let mut placed = false;
    for k in begin..=end {
        let inst = m.insts[k].clone();
        let is_input = matches!(inst, Inst::GraphInput { .. } | Inst::Graph { .. });
        if !is_input && !placed {
            body.append(&mut prologue);
            placed = true;
        }
        let result = inst.result_id();
        body.push(inst);
        if let Some(name) = result.and_then(|r| op_name.remove(&r)) {
            let id = decls::fresh_id(m);
            let instructions = result.into_iter().collect();
            body.push(Inst::GraphDebug {
                ty: void,
                result: id,
                set,
                inst: GraphDebugInst::Operation { debug_graph, name, instructions },
            });
        }
    }
    m.insts.splice(begin..=end, body);
    Made::one(case)
}

//! Mutators for the `debuginfo.*` rules (NonSemantic.Graph.DebugInfo).
//!
//! The generator emits debug info only inside graph bodies: a DebugGraph
//! right after the inputs, DebugOperations after the operations they name
//! and DebugTensors after the values' definitions. Every mutator here needs
//! such a module (the bias raises the debug probabilities to 1) and breaks
//! one operand, result type or form of one debug instruction, choosing
//! replacement ids that are defined *before* the instruction and in scope,
//! so that no forward-reference or graph-scope rule breaks as well.

use super::{Edit, GraphSpan, Mutator};
use crate::Config;
use spvgraph_ir::inst::{GraphDebugInst, Id, Inst, GRAPH_DEBUG_SET_PREFIX};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::TosaOp;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    let m = |rule, name, apply| Mutator { rule, name, bias: debug_everywhere, apply };
    vec![
        m(RuleId::DebugInfoVersion, "bad-import-version", bad_import_version),
        m(RuleId::DebugInfoInstruction, "unknown-instruction-number", unknown_instruction_number),
        m(RuleId::DebugInfoInstruction, "wrong-operand-count", wrong_operand_count),
        m(RuleId::DebugInfoResultType, "non-void-result-type", non_void_result_type),
        m(RuleId::DebugInfoForwardReference, "move-before-definition", move_before_definition),
        m(RuleId::DebugInfoForwardReference, "new-debug-tensor-before-definition", new_tensor_before_definition),
        m(RuleId::DebugInfoGraph, "graph-operand-not-a-graph", graph_operand_not_a_graph),
        m(RuleId::DebugInfoName, "name-not-a-string", name_not_a_string),
        m(RuleId::DebugInfoOperation, "debug-graph-operand-not-a-debug-graph", debug_graph_operand_wrong),
        m(RuleId::DebugInfoOperation, "instruction-outside-the-graph", instruction_outside_graph),
        m(RuleId::DebugInfoTensor, "tensor-not-a-tensor", tensor_not_a_tensor),
        m(RuleId::DebugInfoTensor, "index-on-a-plain-tensor", index_on_plain_tensor),
        m(RuleId::DebugInfoTensor, "bad-composite-index", bad_composite_index),
    ]
}

/// Every graph carries debug info, with a DebugOperation per operation and
/// DebugTensors on every value.
fn debug_everywhere(c: &mut Config) {
    c.probs.debug_info = 1.0;
    c.probs.debug_operation = 1.0;
    c.probs.debug_tensor = 1.0;
}

// ---- looking ---------------------------------------------------------------------

/// The graph whose body (strictly between `OpGraphARM` and `OpGraphEndARM`) holds index `i`.
fn span_of(e: &Edit, i: usize) -> Option<GraphSpan> {
    e.graphs().into_iter().find(|g| g.begin < i && i < g.end)
}

/// Indices of the debug instructions for which `keep` holds.
fn debug_where(e: &Edit, keep: impl Fn(&GraphDebugInst) -> bool) -> Vec<usize> {
    e.indices(|i| matches!(i, Inst::GraphDebug { inst, .. } if keep(inst)))
}

/// The first body index of a graph after its `OpGraphInputARM`s: the earliest
/// place a debug instruction may stand.
fn body_start(e: &Edit, g: &GraphSpan) -> usize {
    let last_input =
        (g.begin + 1..g.end).filter(|&j| matches!(e.module.insts.get(j), Some(Inst::GraphInput { .. }))).max();
    last_input.map_or(g.begin + 1, |j| j + 1)
}

/// Result ids defined before index `i` that an operand of an instruction at
/// `i` may name without a forward reference or a graph-scope error: module
/// scope declarations, `OpGraphARM` results, and results of the graph body
/// holding `i`. `keep` filters the defining instructions.
fn in_scope_before(e: &Edit, i: usize, keep: impl Fn(&Inst) -> bool) -> Vec<Id> {
    let graphs = e.graphs();
    let here = graphs.iter().find(|g| g.begin < i && i < g.end).map(|g| g.id);
    e.module
        .insts
        .iter()
        .enumerate()
        .take(i)
        .filter(|(j, inst)| {
            let scope_ok = match graphs.iter().find(|g| g.begin <= *j && *j <= g.end) {
                None => true,
                Some(g) => *j == g.begin || Some(g.id) == here,
            };
            scope_ok && keep(inst)
        })
        .filter_map(|(_, inst)| inst.result_id())
        .collect()
}

/// Values that are neither strings, graphs nor debug results: constants,
/// variables and graph-body values (the operand kinds a debug instruction
/// may name by mistake).
fn is_plain_value(inst: &Inst) -> bool {
    inst.is_constant()
        || matches!(
            inst,
            Inst::Variable { .. } | Inst::GraphInput { .. } | Inst::Tosa { .. } | Inst::CompositeExtract { .. }
        )
}

/// The set and void type an existing debug instruction uses.
fn debug_set_and_void(e: &Edit) -> Option<(Id, Id)> {
    e.module.insts.iter().find_map(|i| match i {
        Inst::GraphDebug { ty, set, .. } if matches!(e.def(*ty), Some(Inst::TypeVoid { .. })) => Some((*set, *ty)),
        _ => None,
    })
}

/// Some `OpString` (every debug instruction names one, so any will do as a Name).
fn some_string(e: &mut Edit) -> Option<Id> {
    let strings = e.results_where(|i| matches!(i, Inst::String { .. }));
    e.choose(&strings)
}

// ---- debuginfo.version ---------------------------------------------------------------

/// The import name's version is not an integer from 1 to 1. The prefix is
/// kept, so the set is still recognised as NonSemantic.Graph.DebugInfo and
/// its instructions still decode (and stay valid). ("01" is the integer 1:
/// valid. SPIRV-Tools main also accepts "+1", " 1" and, truncating to 32
/// bits, "4294967297" and "-4294967295": see `external::spirv_val::known`.)
fn bad_import_version(e: &mut Edit) -> Option<()> {
    let imports =
        e.indices(|i| matches!(i, Inst::ExtInstImport { name, .. } if name.starts_with(GRAPH_DEBUG_SET_PREFIX)));
    let at = e.choose(&imports)?;
    let bad = ["0", "2", "3", "10", "4294967297", "-4294967295", "+1", "1.0", "", "x", "-1", "1a", " 1", "v1"];
    let version = e.choose(&bad)?;
    let Some(Inst::ExtInstImport { name, .. }) = e.module.insts.get_mut(at) else { return None };
    *name = format!("{GRAPH_DEBUG_SET_PREFIX}{version}");
    e.note(format!("DebugInfo imported as version \"{version}\""));
    Some(())
}

// ---- debuginfo.instruction ------------------------------------------------------------

/// Inserts `copy` (an `OpExtInst` of the debug set that does not decode as
/// a known instruction) right after the debug instruction at `at`. The copy
/// has a fresh result id nothing refers to, and its operands are those of
/// the original (all defined before it), so only its form is wrong.
fn insert_raw_copy(e: &mut Edit, at: usize, number: u32, operands: Vec<u32>) -> Option<()> {
    let (ty, set) = match e.module.insts.get(at)? {
        Inst::GraphDebug { ty, set, .. } => (*ty, *set),
        _ => return None,
    };
    let result = e.fresh_id();
    e.insert(at + 1, Inst::ExtInst { ty, result, set, number, operands });
    Some(())
}

fn unknown_instruction_number(e: &mut Edit) -> Option<()> {
    let all = debug_where(e, |_| true);
    let at = e.choose(&all)?;
    let Some(Inst::GraphDebug { inst, .. }) = e.module.insts.get(at) else { return None };
    let (name, operands) = (inst.name(), inst.operands());
    let number = e.choose(&[0u32, 4, 5, 7, 8, 16, 100, 255, 1000, 0xffff, 0x7fff_ffff, u32::MAX])?;
    insert_raw_copy(e, at, number, operands.iter().map(|o| o.0).collect())?;
    e.note(format!("copy of a {name} with instruction number {number}"));
    Some(())
}

fn wrong_operand_count(e: &mut Edit) -> Option<()> {
    let all = debug_where(e, |_| true);
    let at = e.choose(&all)?;
    let Some(Inst::GraphDebug { inst, .. }) = e.module.insts.get(at) else { return None };
    let (name, number, ops) = (inst.name(), inst.number(), inst.operands());
    let words: Vec<u32> = ops.iter().map(|o| o.0).collect();
    // Counts that decode as none of the three forms: DebugGraph takes 2,
    // DebugOperation 3 or more, DebugTensor 2 or 3.
    let counts: &[usize] = match number {
        1 => &[0, 1, 3, 4],
        2 => &[0, 1, 2],
        _ => &[0, 1, 4, 5],
    };
    let n = e.choose(counts)?;
    // Shorter: a prefix of the real operands; longer: the real ones repeated.
    let operands: Vec<u32> = words.iter().copied().cycle().take(if words.is_empty() { 0 } else { n }).collect();
    if operands.len() != n {
        return None;
    }
    insert_raw_copy(e, at, number, operands)?;
    e.note(format!("copy of a {name} with {n} operands"));
    Some(())
}

// ---- debuginfo.result-type ---------------------------------------------------------------

fn non_void_result_type(e: &mut Edit) -> Option<()> {
    let all = debug_where(e, |_| true);
    let at = e.choose(&all)?;
    // Any non-void scalar or tensor type declared before the instruction;
    // not a bf16/fp8 scalar: spirv-val rejects those as an OpExtInst result
    // (SPV_KHR_bfloat16 / SPV_EXT_float8 usage rules), which the catalogue
    // has no rule for.
    let types = in_scope_before(e, at, |i| {
        matches!(
            i,
            Inst::TypeInt { .. }
                | Inst::TypeFloat { encoding: None, .. }
                | Inst::TypeBool { .. }
                | Inst::TypeTensor { .. }
        )
    });
    let new_ty = e.choose(&types)?;
    let Some(Inst::GraphDebug { ty, inst, .. }) = e.module.insts.get_mut(at) else { return None };
    *ty = new_ty;
    let name = inst.name();
    e.note(format!("{name} with Result Type %{}", new_ty.0));
    Some(())
}

// ---- debuginfo.forward-reference -------------------------------------------------------------

/// Moves a DebugTensor or DebugOperation above the definition of a value
/// it names (still inside the body, after the inputs; a DebugOperation
/// moved above its DebugGraph would forward-reference that too, which is
/// the same rule).
fn move_before_definition(e: &mut Edit) -> Option<()> {
    let mut candidates = Vec::new();
    for at in debug_where(e, |d| !matches!(d, GraphDebugInst::Graph { .. })) {
        let Some(g) = span_of(e, at) else { continue };
        let lo = body_start(e, &g);
        let Some(Inst::GraphDebug { inst, .. }) = e.module.insts.get(at) else { continue };
        let named = match inst {
            GraphDebugInst::Tensor { tensor, .. } => vec![*tensor],
            GraphDebugInst::Operation { instructions, .. } => instructions.clone(),
            GraphDebugInst::Graph { .. } => continue,
        };
        // The earliest definition among the named values, if it is in this body past the inputs.
        let Some(d) = named.iter().filter_map(|id| e.def_index(*id)).min() else { continue };
        if lo <= d && d < at {
            candidates.push((at, lo, d));
        }
    }
    let (at, lo, d) = e.choose(&candidates)?;
    let to = e.int_in(lo as i64, d as i64) as usize;
    let inst = e.module.insts.remove(at);
    let name = match &inst {
        Inst::GraphDebug { inst, .. } => inst.name(),
        _ => "?",
    };
    // `to <= d < at`: removing `at` did not shift `to`.
    e.insert(to, inst);
    e.note(format!("{name} moved from instruction {at} to {to}, above the definition at {d}"));
    Some(())
}

/// A new DebugTensor, naming a body value, placed above its definition.
fn new_tensor_before_definition(e: &mut Edit) -> Option<()> {
    let (set, void) = debug_set_and_void(e)?;
    let mut candidates = Vec::new();
    for g in e.graphs() {
        let lo = body_start(e, &g);
        for d in lo..g.end {
            // Tensor-typed values only (an FFT's struct result would need an Index).
            let tensor =
                e.module.insts.get(d).filter(|i| matches!(i, Inst::Tosa { .. } | Inst::CompositeExtract { .. }));
            if tensor.and_then(Inst::result_id).is_some_and(|id| e.shape_of(id).is_some()) {
                candidates.push((lo, d));
            }
        }
    }
    let (lo, d) = e.choose(&candidates)?;
    let tensor = e.module.insts.get(d)?.result_id()?;
    let name = some_string(e)?;
    let to = e.int_in(lo as i64, d as i64) as usize;
    let result = e.fresh_id();
    e.insert(
        to,
        Inst::GraphDebug { ty: void, result, set, inst: GraphDebugInst::Tensor { tensor, name, index: None } },
    );
    e.note(format!("new DebugTensor of %{} at instruction {to}, above its definition", tensor.0));
    Some(())
}

// ---- debuginfo.graph ---------------------------------------------------------------------

/// DebugGraph's Graph operand names a constant, variable or graph input.
/// DebugOperations of that DebugGraph then describe no graph, which the
/// operation rule does not hold against them (it checks membership only
/// for a DebugGraph that describes a graph).
fn graph_operand_not_a_graph(e: &mut Edit) -> Option<()> {
    let all = debug_where(e, |d| matches!(d, GraphDebugInst::Graph { .. }));
    let at = e.choose(&all)?;
    let ids =
        in_scope_before(e, at, |i| i.is_constant() || matches!(i, Inst::Variable { .. } | Inst::GraphInput { .. }));
    let id = e.choose(&ids)?;
    let Some(Inst::GraphDebug { inst: GraphDebugInst::Graph { graph, .. }, .. }) = e.module.insts.get_mut(at) else {
        return None;
    };
    *graph = id;
    e.note(format!("DebugGraph's Graph operand is %{}", id.0));
    Some(())
}

// ---- debuginfo.name ---------------------------------------------------------------------------

fn name_not_a_string(e: &mut Edit) -> Option<()> {
    let all = debug_where(e, |_| true);
    let at = e.choose(&all)?;
    // Anything but an OpString: values, graphs, earlier debug results.
    let ids =
        in_scope_before(e, at, |i| is_plain_value(i) || matches!(i, Inst::Graph { .. } | Inst::GraphDebug { .. }));
    let id = e.choose(&ids)?;
    let Some(Inst::GraphDebug { inst, .. }) = e.module.insts.get_mut(at) else { return None };
    match inst {
        GraphDebugInst::Graph { name, .. }
        | GraphDebugInst::Operation { name, .. }
        | GraphDebugInst::Tensor { name, .. } => *name = id,
    }
    let what = inst.name();
    e.note(format!("{what}'s Name is %{}", id.0));
    Some(())
}

// ---- debuginfo.operation -----------------------------------------------------------------------

/// DebugOperation's DebugGraph operand names something else defined
/// earlier: a value, the graph itself, or another debug instruction's result.
fn debug_graph_operand_wrong(e: &mut Edit) -> Option<()> {
    let all = debug_where(e, |d| matches!(d, GraphDebugInst::Operation { .. }));
    let at = e.choose(&all)?;
    let ids = in_scope_before(e, at, |i| {
        is_plain_value(i)
            || matches!(i, Inst::Graph { .. })
            || matches!(i, Inst::GraphDebug { inst, .. } if !matches!(inst, GraphDebugInst::Graph { .. }))
    });
    let id = e.choose(&ids)?;
    let Some(Inst::GraphDebug { inst: GraphDebugInst::Operation { debug_graph, .. }, .. }) = e.module.insts.get_mut(at)
    else {
        return None;
    };
    *debug_graph = id;
    e.note(format!("DebugOperation's DebugGraph operand is %{}", id.0));
    Some(())
}

/// One of DebugOperation's instructions is not in the described graph: a
/// module-scope constant or variable, or the `OpGraphARM` itself.
fn instruction_outside_graph(e: &mut Edit) -> Option<()> {
    let all = debug_where(e, |d| matches!(d, GraphDebugInst::Operation { .. }));
    let at = e.choose(&all)?;
    // Constants and variables: clearly outside every graph. Not the graph's
    // own OpGraphARM: whether it is "within the graph" the instruction set
    // does not say, and SPIRV-Tools v2026.3 takes it to be (its
    // IsInstructionInGraph starts the graph at OpGraphARM), so a case built
    // on it would test a reading, not the rule.
    let ids = in_scope_before(e, at, |i| i.is_constant() || matches!(i, Inst::Variable { .. }));
    let id = e.choose(&ids)?;
    let replace = e.flip();
    let Some(Inst::GraphDebug { inst: GraphDebugInst::Operation { instructions, .. }, .. }) =
        e.module.insts.get_mut(at)
    else {
        return None;
    };
    let how = if replace && !instructions.is_empty() {
        let k = (id.0 as usize) % instructions.len();
        if let Some(slot) = instructions.get_mut(k) {
            *slot = id;
        }
        "replaced by"
    } else {
        instructions.push(id);
        "extended with"
    };
    e.note(format!("DebugOperation's instruction list {how} %{}", id.0));
    Some(())
}

// ---- debuginfo.tensor ----------------------------------------------------------------------------

/// DebugTensor's Tensor is a scalar or array constant, or a variable.
fn tensor_not_a_tensor(e: &mut Edit) -> Option<()> {
    let all = debug_where(e, |d| matches!(d, GraphDebugInst::Tensor { index: None, .. }));
    let at = e.choose(&all)?;
    let a = e.analysis();
    let ids = in_scope_before(e, at, |i| {
        let non_tensor = |ty: Id| match a.def(ty) {
            Some(Inst::TypeBool { .. } | Inst::TypeInt { .. } | Inst::TypeFloat { .. } | Inst::TypePointer { .. }) => {
                true
            }
            // Arrays of tensors are composites of tensors: keep to arrays of scalars.
            Some(Inst::TypeArray { element, .. }) => {
                matches!(a.def(*element), Some(Inst::TypeBool { .. } | Inst::TypeInt { .. } | Inst::TypeFloat { .. }))
            }
            _ => false,
        };
        (i.is_constant() || matches!(i, Inst::Variable { .. })) && i.result_type().is_some_and(non_tensor)
    });
    drop(a);
    let id = e.choose(&ids)?;
    let Some(Inst::GraphDebug { inst: GraphDebugInst::Tensor { tensor, .. }, .. }) = e.module.insts.get_mut(at) else {
        return None;
    };
    *tensor = id;
    e.note(format!("DebugTensor's Tensor is %{}, not a tensor", id.0));
    Some(())
}

/// A DebugTensor of a plain tensor gets an Index.
fn index_on_plain_tensor(e: &mut Edit) -> Option<()> {
    let all = debug_where(e, |d| matches!(d, GraphDebugInst::Tensor { index: None, .. }));
    let at = e.choose(&all)?;
    let result = e.module.insts.get(at)?.result_id()?;
    let k = e.int_in(0, 3) as u32;
    // Declaring the constant may shift the graph section: find the instruction again.
    let c = e.const_u32(k);
    let at = e.def_index(result)?;
    let Some(Inst::GraphDebug { inst: GraphDebugInst::Tensor { index, .. }, .. }) = e.module.insts.get_mut(at) else {
        return None;
    };
    *index = Some(c);
    e.note(format!("DebugTensor of a plain tensor with Index {k}"));
    Some(())
}

/// A new DebugTensor of an FFT2D/RFFT2D result (a struct of two tensors)
/// without an Index, or with one past the two members.
fn bad_composite_index(e: &mut Edit) -> Option<()> {
    let (set, void) = debug_set_and_void(e)?;
    let ffts = e.tosa_where(|op, i| matches!(op, TosaOp::Fft2d | TosaOp::Rfft2d) && span_of(e, i).is_some());
    let at = e.choose(&ffts)?;
    let tensor = e.module.insts.get(at)?.result_id()?;
    let name = some_string(e)?;
    let index = match e.int_in(0, 4) {
        0 => None,
        k => Some(e.const_u32(k as u32 + 1)),
    };
    // The constant may have shifted the body: place the DebugTensor right after the FFT.
    let at = e.def_index(tensor)?;
    let result = e.fresh_id();
    e.insert(at + 1, Inst::GraphDebug { ty: void, result, set, inst: GraphDebugInst::Tensor { tensor, name, index } });
    match index {
        None => e.note(format!("DebugTensor of the FFT struct %{} without an Index", tensor.0)),
        Some(c) => {
            e.note(format!("DebugTensor of the FFT struct %{} with Index %{} past its 2 members", tensor.0, c.0))
        }
    }
    Some(())
}

//! Mutators for the `graph.*` rules: the graph type, graph entry points,
//! `OpGraphInputARM` / `OpGraphSetOutputARM` operands, and
//! `OpCompositeExtract` of FFT results.
//!
//! Where a rule can be broken by *adding* an instruction (a second read of an
//! input, an extra output write, a dead copy of an extract), that is preferred
//! over changing one the graph relies on, so every other interface slot stays
//! read and written exactly as before.

use super::{no_bias, Edit, GraphSpan, Mutator};
use crate::Config;
use spvgraph_ir::elem::ScalarKind;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::TosaOp;

/// `OpUndef` (not a constant instruction).
const OP_UNDEF: u16 = 1;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    let m = |rule, name, bias, apply| Mutator { rule, name, bias, apply };
    vec![
        m(RuleId::GraphType, "graph-type-not-a-graph-type", no_bias, graph_type_not_graph),
        m(RuleId::GraphEntryPointMissing, "drop-entry-points", no_bias, drop_entry_points),
        m(RuleId::GraphEntryPointMissing, "drop-entry-points-and-variables", no_bias, drop_entry_points_and_variables),
        m(RuleId::GraphEntryPointNotAGraph, "entry-point-names-a-global", no_bias, entry_point_not_a_graph),
        m(RuleId::GraphEntryPointDuplicateName, "copy-entry-point", no_bias, copy_entry_point),
        m(RuleId::GraphEntryPointDuplicateName, "rename-to-existing", bias_alias, rename_entry_point),
        m(RuleId::GraphEntryPointInterfaceCount, "drop-last-interface", no_bias, drop_last_interface),
        m(RuleId::GraphEntryPointInterfaceCount, "extra-interface", no_bias, extra_interface),
        m(RuleId::GraphEntryPointInterfaceVariable, "constant-as-interface", no_bias, constant_as_interface),
        m(RuleId::GraphEntryPointInterfaceType, "foreign-variable", no_bias, foreign_variable),
        m(RuleId::GraphEntryPointInterfaceType, "swap-interfaces", no_bias, swap_interfaces),
        m(RuleId::GraphInputIndexNotConstant, "undef-input-index", no_bias, |e| undef_index(e, Side::Input, false)),
        m(RuleId::GraphInputIndexNotConstant, "undef-element-index", bias_arrays, |e| {
            undef_index(e, Side::Input, true)
        }),
        m(RuleId::GraphInputIndexType, "input-index-not-int32", no_bias, |e| index_not_i32(e, Side::Input, false)),
        m(RuleId::GraphInputIndexType, "element-index-not-int32", bias_arrays, |e| index_not_i32(e, Side::Input, true)),
        m(RuleId::GraphInputIndexRange, "input-index-past-end", no_bias, input_index_past_end),
        m(RuleId::GraphInputDuplicateIndex, "dead-duplicate-read", no_bias, dead_duplicate_read),
        m(RuleId::GraphInputDuplicateIndex, "same-index-as-other", bias_arrays, input_same_index),
        m(RuleId::GraphInputDuplicateIndex, "whole-array-read-before-elements", bias_arrays, |e| {
            whole_array_read(e, true)
        }),
        m(RuleId::GraphInputDuplicateIndex, "whole-array-read-after-elements", bias_arrays, |e| {
            whole_array_read(e, false)
        }),
        m(RuleId::GraphInputElementIndex, "element-index-on-plain-input", no_bias, |e| {
            element_on_plain(e, Side::Input)
        }),
        m(RuleId::GraphInputElementIndex, "element-index-past-array", bias_arrays, |e| {
            element_past_array(e, Side::Input)
        }),
        m(RuleId::GraphInputType, "unread-element-wrong-type", bias_unread, unread_element_wrong_type),
        m(RuleId::GraphInputType, "array-read-without-element-index", bias_unread, array_read_without_element),
        m(RuleId::GraphOutputIndexNotConstant, "undef-output-index", no_bias, |e| undef_index(e, Side::Output, false)),
        m(RuleId::GraphOutputIndexNotConstant, "undef-element-index", bias_arrays, |e| {
            undef_index(e, Side::Output, true)
        }),
        m(RuleId::GraphOutputIndexType, "output-index-not-int32", no_bias, |e| index_not_i32(e, Side::Output, false)),
        m(RuleId::GraphOutputIndexType, "element-index-not-int32", bias_arrays, |e| {
            index_not_i32(e, Side::Output, true)
        }),
        m(RuleId::GraphOutputIndexRange, "extra-write-past-end", no_bias, extra_write_past_end),
        m(RuleId::GraphOutputDuplicateIndex, "repeat-write", no_bias, repeat_write),
        m(RuleId::GraphOutputDuplicateIndex, "second-value-same-index", no_bias, second_value_same_index),
        m(RuleId::GraphOutputElementIndex, "element-index-on-plain-output", no_bias, |e| {
            element_on_plain(e, Side::Output)
        }),
        m(RuleId::GraphOutputElementIndex, "element-index-past-array", bias_arrays, |e| {
            element_past_array(e, Side::Output)
        }),
        m(RuleId::GraphOutputType, "write-value-of-other-type", no_bias, write_wrong_value),
        m(RuleId::GraphOutputMissing, "drop-output-writes", no_bias, drop_output_writes),
        m(RuleId::GraphCompositeExtract, "extract-index-past-struct", bias_fft, extract_index_past_struct),
        m(RuleId::GraphCompositeExtract, "extract-wrong-result-type", bias_fft, extract_wrong_type),
    ]
}

// ---- biases ----------------------------------------------------------------------

fn bias_alias(c: &mut Config) {
    c.probs.alias_entry_point = 1.0;
}

/// Tensor-array inputs and outputs (ElementIndex operands).
fn bias_arrays(c: &mut Config) {
    c.probs.tensor_array_input = 1.0;
    c.probs.tensor_array_output = 1.0;
}

/// Tensor-array inputs with an element the graph never reads.
fn bias_unread(c: &mut Config) {
    c.probs.tensor_array_input = 1.0;
    c.probs.unread_array_element = 1.0;
}

/// FFT2D / RFFT2D, whose struct results are taken apart with OpCompositeExtract.
fn bias_fft(c: &mut Config) {
    c.allow_ops = vec![TosaOp::Fft2d, TosaOp::Rfft2d];
    c.probs.fft_both_results = 1.0;
}

// ---- looking ---------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Input,
    Output,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Input => "OpGraphInputARM",
            Side::Output => "OpGraphSetOutputARM",
        }
    }
}

/// The input and output types of an `OpTypeGraphARM`.
fn graph_io(e: &Edit, ty: Id) -> Option<(Vec<Id>, Vec<Id>)> {
    match e.def(ty)? {
        Inst::TypeGraph { num_inputs, io, .. } => {
            let k = (*num_inputs as usize).min(io.len());
            Some((io.get(..k)?.to_vec(), io.get(k..)?.to_vec()))
        }
        _ => None,
    }
}

/// The interface types of `side` of the graph `span`.
fn side_types(e: &Edit, span: GraphSpan, side: Side) -> Option<Vec<Id>> {
    let (ins, outs) = graph_io(e, span.ty)?;
    Some(if side == Side::Input { ins } else { outs })
}

/// Element type and constant length of an `OpTypeArray`.
fn array_of(e: &Edit, ty: Id) -> Option<(Id, u64)> {
    match e.def(ty)? {
        Inst::TypeArray { element, length, .. } => Some((*element, e.analysis().const_uint(*length)?)),
        _ => None,
    }
}

/// `(index, element index)` operands of an input read or output write.
fn io_operands(inst: &Inst) -> Option<(Id, Option<Id>)> {
    match inst {
        Inst::GraphInput { input_index, element_index, .. } => Some((*input_index, *element_index)),
        Inst::GraphSetOutput { output_index, element_index, .. } => Some((*output_index, *element_index)),
        _ => None,
    }
}

fn is_side(inst: &Inst, side: Side) -> bool {
    match side {
        Side::Input => matches!(inst, Inst::GraphInput { .. }),
        Side::Output => matches!(inst, Inst::GraphSetOutput { .. }),
    }
}

/// One `OpGraphInputARM` / `OpGraphSetOutputARM` with its operands read.
#[derive(Clone, Copy)]
struct Io {
    /// Ordinal among the module's instructions of this side (stable under `add_global`).
    ordinal: usize,
    span: GraphSpan,
    index: u64,
    element: Option<u64>,
    /// The graph type's interface type at `index`.
    slot_ty: Id,
}

/// Every read (or write) of the module whose operands are readable constants.
fn ios(e: &Edit, side: Side) -> Vec<Io> {
    let a = e.analysis();
    let spans = e.graphs();
    let mut out = Vec::new();
    for (ordinal, at) in e.indices(|i| is_side(i, side)).into_iter().enumerate() {
        let Some(span) = spans.iter().copied().find(|s| s.begin < at && at < s.end) else { continue };
        let Some((index, element)) = e.module.insts.get(at).and_then(io_operands) else { continue };
        let Some(index) = a.const_uint(index) else { continue };
        let element = match element {
            Some(el) => match a.const_uint(el) {
                Some(v) => Some(v),
                None => continue,
            },
            None => None,
        };
        let Some(types) = side_types(e, span, side) else { continue };
        let Some(&slot_ty) = usize::try_from(index).ok().and_then(|k| types.get(k)) else { continue };
        out.push(Io { ordinal, span, index, element, slot_ty });
    }
    out
}

/// The index (in `e.module.insts`) of the `ordinal`-th instruction of `side`.
fn nth(e: &Edit, side: Side, ordinal: usize) -> Option<usize> {
    e.indices(|i| is_side(i, side)).get(ordinal).copied()
}

/// Shaped tensor types of the module (type ids).
fn shaped_tensor_types(e: &Edit) -> Vec<Id> {
    e.results_where(|i| matches!(i, Inst::TypeTensor { rank: Some(_), shape: Some(_), .. }))
}

/// A shaped tensor type other than `not`: an existing one, else `not` with
/// its first dimension grown by one (declared).
fn other_tensor_type(e: &mut Edit, not: Id) -> Option<Id> {
    let others: Vec<Id> = shaped_tensor_types(e).into_iter().filter(|&t| t != not).collect();
    if let Some(t) = e.choose(&others) {
        return Some(t);
    }
    let mut shape = e.shape_of(not)?;
    let first = shape.first_mut()?;
    *first = first.checked_add(1)?;
    let Some(Inst::TypeTensor { element, .. }) = e.def(not) else { return None };
    let element = *element;
    Some(e.tensor_type(element, &shape))
}

/// A global `OpUndef` of type `ty` (reused if declared).
fn undef(e: &mut Edit, ty: Id) -> Id {
    let found = e.module.insts.iter().find_map(|i| match i {
        Inst::Raw { opcode: OP_UNDEF, operands } if operands.first() == Some(&ty.0) => operands.get(1).map(|&r| Id(r)),
        _ => None,
    });
    found.unwrap_or_else(|| {
        let r = e.fresh_id();
        e.add_global(Inst::Raw { opcode: OP_UNDEF, operands: vec![ty.0, r.0] });
        r
    })
}

/// A scalar constant whose type is not a 32-bit integer, with the value
/// `v` where the type allows: an existing one of another width (their
/// capabilities are declared), else a new 32-bit float or boolean constant
/// (neither needs a capability).
fn non_i32_constant(e: &mut Edit, v: u64) -> Option<(Id, String)> {
    let a = e.analysis();
    let existing: Vec<Id> = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Constant { ty, result, spec: false, .. }
            | Inst::ConstantTrue { ty, result, spec: false }
            | Inst::ConstantFalse { ty, result, spec: false }
            | Inst::ConstantNull { ty, result } => match a.scalar_kind(*ty)? {
                ScalarKind::Int { width: 32, .. } => None,
                _ => Some(*result),
            },
            _ => None,
        })
        .collect();
    drop(a);
    let pick = e.int_in(0, 2);
    if pick == 0 {
        if let Some(c) = e.choose(&existing) {
            return Some((c, format!("existing constant %{}", c.0)));
        }
    }
    if pick == 1 {
        let fty = float32(e);
        let c = e.constant(fty, vec![(v as f32).to_bits()]);
        return Some((c, format!("float constant {v}.0")));
    }
    let value = v != 0;
    let c = e.bool_const(value);
    Some((c, format!("boolean constant {value}")))
}

/// `OpTypeFloat 32`, declared if missing.
fn float32(e: &mut Edit) -> Id {
    let found = e.module.insts.iter().find_map(|i| match i {
        Inst::TypeFloat { result, width: 32, encoding: None } => Some(*result),
        _ => None,
    });
    found.unwrap_or_else(|| {
        let result = e.fresh_id();
        e.add_global(Inst::TypeFloat { result, width: 32, encoding: None });
        result
    })
}

/// Indices of the graph entry points.
fn entry_points(e: &Edit) -> Vec<usize> {
    e.indices(|i| matches!(i, Inst::GraphEntryPoint { .. }))
}

// ---- graph.type ------------------------------------------------------------------

/// OpGraphARM whose Result Type is a type other than OpTypeGraphARM.
fn graph_type_not_graph(e: &mut Edit) -> Option<()> {
    let graphs = e.graphs();
    let g = e.choose(&graphs)?;
    // Pointer, void and struct types are left out: they are not what a
    // producer would confuse with a graph type, and the others suffice.
    let types = e.results_where(|i| {
        matches!(
            i,
            Inst::TypeTensor { .. }
                | Inst::TypeInt { .. }
                | Inst::TypeFloat { .. }
                | Inst::TypeBool { .. }
                | Inst::TypeArray { .. }
        )
    });
    let t = e.choose(&types)?;
    match e.module.insts.get_mut(g.begin)? {
        Inst::Graph { ty, .. } => *ty = t,
        _ => return None,
    }
    e.note(format!("OpGraphARM %{} has Result Type %{} (not an OpTypeGraphARM)", g.id.0, t.0));
    Some(())
}

// ---- graph.entry-point.* ---------------------------------------------------------

fn drop_entry_points(e: &mut Edit) -> Option<()> {
    let n = entry_points(e).len();
    if n == 0 {
        return None;
    }
    e.module.insts.retain(|i| !matches!(i, Inst::GraphEntryPoint { .. }));
    e.note(format!("removed all {n} OpGraphEntryPointARM"));
    Some(())
}

/// Also removes the interface variables (and their names and decorations),
/// as a producer that forgot to export the graph would.
fn drop_entry_points_and_variables(e: &mut Edit) -> Option<()> {
    let mut vars: Vec<Id> = Vec::new();
    for i in entry_points(e) {
        if let Some(Inst::GraphEntryPoint { interface, .. }) = e.module.insts.get(i) {
            vars.extend(interface.iter().copied());
        }
    }
    if vars.is_empty() {
        return None;
    }
    vars.sort_unstable();
    vars.dedup();
    e.module.insts.retain(|i| match i {
        Inst::GraphEntryPoint { .. } => false,
        Inst::Variable { result, .. } => vars.binary_search(result).is_err(),
        Inst::Name { target, .. } | Inst::Decorate { target, .. } => vars.binary_search(target).is_err(),
        _ => true,
    });
    e.note(format!("removed every OpGraphEntryPointARM and their {} interface variables", vars.len()));
    Some(())
}

/// The Graph operand names a global constant or variable.
fn entry_point_not_a_graph(e: &mut Edit) -> Option<()> {
    let eps = entry_points(e);
    let at = e.choose(&eps)?;
    // Only ids of value-producing global instructions: a type would also
    // break "operand cannot be a type", a graph-local value ids.graph-scope.
    let globals = e.results_where(|i| i.is_constant() || matches!(i, Inst::Variable { .. }));
    let c = e.choose(&globals)?;
    let old = match e.module.insts.get_mut(at)? {
        Inst::GraphEntryPoint { graph, .. } => std::mem::replace(graph, c),
        _ => return None,
    };
    e.note(format!("graph entry point names %{} instead of the graph %{}", c.0, old.0));
    Some(())
}

/// An exact second copy of an entry point (same name, graph and interface).
fn copy_entry_point(e: &mut Edit) -> Option<()> {
    let eps = entry_points(e);
    let at = e.choose(&eps)?;
    let copy = e.module.insts.get(at)?.clone();
    let Inst::GraphEntryPoint { name, .. } = &copy else { return None };
    e.note(format!("OpGraphEntryPointARM \"{name}\" declared twice"));
    // Anywhere among the entry points after the original (they are
    // contiguous in generated modules; else right after it).
    let last = *eps.last()?;
    let contiguous = (at..=last).all(|i| eps.contains(&i));
    let to = if contiguous { e.int_in(at as i64 + 1, last as i64 + 1) as usize } else { at + 1 };
    e.insert(to, copy);
    Some(())
}

/// One entry point takes the name of another.
fn rename_entry_point(e: &mut Edit) -> Option<()> {
    let eps = entry_points(e);
    if eps.len() < 2 {
        return None;
    }
    let from = e.choose(&eps)?;
    let to = e.choose(&eps.iter().copied().filter(|&i| i != from).collect::<Vec<_>>())?;
    let Some(Inst::GraphEntryPoint { name, .. }) = e.module.insts.get(from) else { return None };
    let name = name.clone();
    let old = match e.module.insts.get_mut(to)? {
        Inst::GraphEntryPoint { name: n, .. } => std::mem::replace(n, name.clone()),
        _ => return None,
    };
    if old == name {
        // Already a duplicate: the base case was not valid to begin with.
        return None;
    }
    e.note(format!("graph entry point \"{old}\" renamed to \"{name}\", the name of another"));
    Some(())
}

fn drop_last_interface(e: &mut Edit) -> Option<()> {
    let eps = entry_points(e);
    let at = e.choose(&eps)?;
    // Dropping the last keeps the others at their positions, so no
    // interface-type mismatch follows.
    let Inst::GraphEntryPoint { interface, name, .. } = e.module.insts.get_mut(at)? else { return None };
    if interface.len() < 2 {
        return None;
    }
    let gone = interface.pop()?;
    let name = name.clone();
    e.note(format!("dropped the last interface variable %{} of graph entry point \"{name}\"", gone.0));
    Some(())
}

/// One more interface variable after the graph's inputs and outputs: a
/// variable of the module (possibly one already in the list).
fn extra_interface(e: &mut Edit) -> Option<()> {
    let eps = entry_points(e);
    let at = e.choose(&eps)?;
    let vars: Vec<Id> = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Variable { result, storage: 0, .. } => Some(*result),
            _ => None,
        })
        .collect();
    let v = e.choose(&vars)?;
    let Inst::GraphEntryPoint { interface, name, .. } = e.module.insts.get_mut(at)? else { return None };
    interface.push(v);
    let name = name.clone();
    e.note(format!("graph entry point \"{name}\" lists an extra interface variable %{}", v.0));
    Some(())
}

/// An interface id that is a constant rather than an OpVariable.
fn constant_as_interface(e: &mut Edit) -> Option<()> {
    let eps = entry_points(e);
    let at = e.choose(&eps)?;
    let consts = e.results_where(Inst::is_constant);
    let c = e.choose(&consts)?;
    let len = match e.module.insts.get(at)? {
        Inst::GraphEntryPoint { interface, .. } => interface.len(),
        _ => return None,
    };
    let k = e.int_in(0, len as i64 - 1) as usize;
    let Inst::GraphEntryPoint { interface, .. } = e.module.insts.get_mut(at)? else { return None };
    let slot = interface.get_mut(k)?;
    let old = std::mem::replace(slot, c);
    e.note(format!("interface {k} of a graph entry point is the constant %{} instead of variable %{}", c.0, old.0));
    Some(())
}

/// A new UniformConstant variable (decorated with a free descriptor set)
/// whose pointee is a graph interface type other than the graph's type at
/// that position.
fn foreign_variable(e: &mut Edit) -> Option<()> {
    let eps = entry_points(e);
    let at = e.choose(&eps)?;
    let (graph, len) = match e.module.insts.get(at)? {
        Inst::GraphEntryPoint { graph, interface, .. } => (*graph, interface.len()),
        _ => return None,
    };
    let Some(Inst::Graph { ty: gty, .. }) = e.def(graph) else { return None };
    let (ins, outs) = graph_io(e, *gty)?;
    let expected: Vec<Id> = ins.iter().chain(&outs).copied().collect();
    let k = e.int_in(0, len.min(expected.len()) as i64 - 1) as usize;
    let want = *expected.get(k)?;
    // Arrays of tensors are graph interface types too: use one sometimes.
    let arrays: Vec<Id> = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::TypeArray { result, element, .. }
                if *result != want && matches!(e.def(*element), Some(Inst::TypeTensor { shape: Some(_), .. })) =>
            {
                Some(*result)
            }
            _ => None,
        })
        .collect();
    let pointee = match e.choose(&arrays) {
        Some(a) if e.flip() => a,
        _ => {
            let base = match e.def(want)? {
                Inst::TypeArray { element, .. } => *element,
                _ => want,
            };
            other_tensor_type(e, base).filter(|&t| t != want)?
        }
    };
    let var = super::interface::new_interface_variable(e, pointee);
    let at =
        e.indices(|i| matches!(i, Inst::GraphEntryPoint { .. })).get(eps.iter().position(|&i| i == at)?).copied()?;
    let Inst::GraphEntryPoint { interface, .. } = e.module.insts.get_mut(at)? else { return None };
    *interface.get_mut(k)? = var;
    e.note(format!(
        "interface {k} of a graph entry point is a new variable of type %{} (the graph's is %{})",
        pointee.0, want.0
    ));
    Some(())
}

/// Two interface variables of different types trade places.
fn swap_interfaces(e: &mut Edit) -> Option<()> {
    let eps = entry_points(e);
    let at = e.choose(&eps)?;
    let Some(Inst::GraphEntryPoint { interface, .. }) = e.module.insts.get(at) else { return None };
    let pointee = |v: Id| match e.def(v) {
        Some(Inst::Variable { ty, .. }) => match e.def(*ty) {
            Some(Inst::TypePointer { pointee, .. }) => Some(*pointee),
            _ => None,
        },
        _ => None,
    };
    let types: Vec<Option<Id>> = interface.iter().map(|&v| pointee(v)).collect();
    let mut pairs = Vec::new();
    for i in 0..types.len() {
        for j in i + 1..types.len() {
            if types[i].is_some() && types[j].is_some() && types[i] != types[j] {
                pairs.push((i, j));
            }
        }
    }
    let (i, j) = e.choose(&pairs)?;
    let Inst::GraphEntryPoint { interface, name, .. } = e.module.insts.get_mut(at)? else { return None };
    interface.swap(i, j);
    let name = name.clone();
    e.note(format!("interface variables {i} and {j} of graph entry point \"{name}\" swapped (different types)"));
    Some(())
}

// ---- index operands ----------------------------------------------------------------

/// InputIndex / OutputIndex (or ElementIndex) becomes an OpUndef of the same type.
fn undef_index(e: &mut Edit, side: Side, element: bool) -> Option<()> {
    let cands: Vec<usize> =
        ios(e, side).into_iter().filter(|io| io.element.is_some() == element).map(|io| io.ordinal).collect();
    let ordinal = e.choose(&cands)?;
    let at = nth(e, side, ordinal)?;
    let (index, elem) = io_operands(e.module.insts.get(at)?)?;
    let old = if element { elem? } else { index };
    let ty = e.def(old)?.result_type()?;
    let u = undef(e, ty);
    let at = nth(e, side, ordinal)?;
    set_operand(e.module.insts.get_mut(at)?, element, u)?;
    let what = if element { "ElementIndex" } else { "index" };
    e.note(format!("{} {what} is OpUndef %{} (not a constant instruction)", side.name(), u.0));
    Some(())
}

/// Replaces the index (or ElementIndex) operand of a read or write.
fn set_operand(inst: &mut Inst, element: bool, to: Id) -> Option<()> {
    match inst {
        Inst::GraphInput { input_index: i, element_index: el, .. }
        | Inst::GraphSetOutput { output_index: i, element_index: el, .. } => {
            if element {
                *el.as_mut()? = to;
            } else {
                *i = to;
            }
            Some(())
        }
        _ => None,
    }
}

/// The index (or ElementIndex) operand is a constant of a type other than a 32-bit integer.
fn index_not_i32(e: &mut Edit, side: Side, element: bool) -> Option<()> {
    let cands: Vec<Io> = ios(e, side).into_iter().filter(|io| io.element.is_some() == element).collect();
    let io = e.choose(&cands)?;
    let v = if element { io.element? } else { io.index };
    let (c, what) = non_i32_constant(e, v)?;
    let at = nth(e, side, io.ordinal)?;
    set_operand(e.module.insts.get_mut(at)?, element, c)?;
    let op = if element { "ElementIndex" } else { "index" };
    e.note(format!("{} {op} is the {what} (not a 32-bit integer)", side.name()));
    Some(())
}

fn input_index_past_end(e: &mut Edit) -> Option<()> {
    let reads = ios(e, Side::Input);
    let io = e.choose(&reads)?;
    let n = side_types(e, io.span, Side::Input)?.len() as u32;
    let v = if e.int_in(0, 7) == 0 { u32::MAX } else { n.saturating_add(e.int_in(0, 3) as u32) };
    let c = e.const_u32(v);
    let at = nth(e, Side::Input, io.ordinal)?;
    set_operand(e.module.insts.get_mut(at)?, false, c)?;
    e.note(format!("OpGraphInputARM InputIndex {v} but the graph has {n} inputs"));
    Some(())
}

/// A second read of an input (fresh result nothing uses), right after the first.
fn dead_duplicate_read(e: &mut Edit) -> Option<()> {
    let reads = ios(e, Side::Input);
    let io = e.choose(&reads)?;
    let at = nth(e, Side::Input, io.ordinal)?;
    let mut copy = e.module.insts.get(at)?.clone();
    let fresh = e.fresh_id();
    match &mut copy {
        Inst::GraphInput { result, .. } => *result = fresh,
        _ => return None,
    }
    e.insert(at + 1, copy);
    let el = io.element.map(|x| format!(" ElementIndex {x}")).unwrap_or_default();
    e.note(format!("InputIndex {}{el} read twice (second read %{} unused)", io.index, fresh.0));
    Some(())
}

/// A read takes the index of another read of the same type: two plain
/// inputs of one tensor type, or two elements of one array.
fn input_same_index(e: &mut Edit) -> Option<()> {
    let reads = ios(e, Side::Input);
    let ty_of = |e: &Edit, io: &Io| match nth(e, Side::Input, io.ordinal).and_then(|i| e.module.insts.get(i)) {
        Some(Inst::GraphInput { ty, .. }) => Some(*ty),
        _ => None,
    };
    let mut pairs = Vec::new();
    for (i, a) in reads.iter().enumerate() {
        for (j, b) in reads.iter().enumerate() {
            if i == j || a.span != b.span {
                continue;
            }
            let same = match (a.element, b.element) {
                // `a` takes `b`'s InputIndex: same Result Type needed.
                (None, None) => a.index != b.index && ty_of(e, a) == ty_of(e, b),
                // `a` takes `b`'s ElementIndex within one array.
                (Some(x), Some(y)) => a.index == b.index && x != y,
                _ => false,
            };
            if same {
                pairs.push((i, j));
            }
        }
    }
    let (i, j) = e.choose(&pairs)?;
    let (a, b) = (*reads.get(i)?, *reads.get(j)?);
    let from = nth(e, Side::Input, b.ordinal)?;
    let (b_index, b_elem) = io_operands(e.module.insts.get(from)?)?;
    let at = nth(e, Side::Input, a.ordinal)?;
    match b_elem {
        Some(el) => set_operand(e.module.insts.get_mut(at)?, true, el)?,
        None => set_operand(e.module.insts.get_mut(at)?, false, b_index)?,
    }
    match b.element {
        Some(el) => e.note(format!("two reads of InputIndex {} with ElementIndex {el}", b.index)),
        None => {
            e.note(format!("InputIndex {} changed to {}, read by another input of the same type", a.index, b.index))
        }
    }
    Some(())
}

/// A dead read of a whole array input (no ElementIndex, Result Type the
/// array type: a well-typed read on its own) besides reads of its
/// elements: the InputIndex is then used twice without ElementIndex on
/// both. Placed before the element reads or after them; spirv-val 2025.5
/// only notices the first order (its duplicate check looks for an earlier
/// read without ElementIndex, not for an earlier read with one).
fn whole_array_read(e: &mut Edit, before: bool) -> Option<()> {
    let reads: Vec<Io> = ios(e, Side::Input).into_iter().filter(|io| io.element.is_some()).collect();
    let io = e.choose(&reads)?;
    let at = nth(e, Side::Input, io.ordinal)?;
    let (index, _) = io_operands(e.module.insts.get(at)?)?;
    let inputs: Vec<usize> = (io.span.begin + 1..io.span.end)
        .filter(|&i| matches!(e.module.insts.get(i), Some(Inst::GraphInput { .. })))
        .collect();
    let to = if before { *inputs.first()? } else { *inputs.last()? + 1 };
    let result = e.fresh_id();
    e.insert(to, Inst::GraphInput { ty: io.slot_ty, result, input_index: index, element_index: None });
    let place = if before { "before" } else { "after" };
    e.note(format!("dead read %{} of the whole array input {} {place} the reads of its elements", result.0, io.index));
    Some(())
}

/// ElementIndex on a read or write whose interface type is not an array.
fn element_on_plain(e: &mut Edit, side: Side) -> Option<()> {
    let cands: Vec<Io> = ios(e, side)
        .into_iter()
        .filter(|io| {
            io.element.is_none()
                && !matches!(e.def(io.slot_ty), Some(Inst::TypeArray { .. } | Inst::TypeRuntimeArray { .. }))
        })
        .collect();
    let io = e.choose(&cands)?;
    let v = e.int_in(0, 3) as u32;
    let c = e.const_u32(v);
    let at = nth(e, side, io.ordinal)?;
    match e.module.insts.get_mut(at)? {
        Inst::GraphInput { element_index, .. } | Inst::GraphSetOutput { element_index, .. } => {
            *element_index = Some(c);
        }
        _ => return None,
    }
    e.note(format!("{} of plain tensor slot {} given ElementIndex {v}", side.name(), io.index));
    Some(())
}

/// ElementIndex at or past the length of the array. Inputs: an existing read
/// moves past the end. Outputs: an extra write past the end (so every element
/// stays written once).
fn element_past_array(e: &mut Edit, side: Side) -> Option<()> {
    let cands: Vec<Io> = ios(e, side).into_iter().filter(|io| io.element.is_some()).collect();
    let io = e.choose(&cands)?;
    let (_, len) = array_of(e, io.slot_ty)?;
    let len = u32::try_from(len).ok()?;
    let v = if e.int_in(0, 7) == 0 { u32::MAX } else { len.saturating_add(e.int_in(0, 2) as u32) };
    let c = e.const_u32(v);
    let at = nth(e, side, io.ordinal)?;
    match side {
        Side::Input => set_operand(e.module.insts.get_mut(at)?, true, c)?,
        Side::Output => {
            let mut copy = e.module.insts.get(at)?.clone();
            set_operand(&mut copy, true, c)?;
            e.insert(at + 1, copy);
        }
    }
    e.note(format!("{} ElementIndex {v} on slot {} (an array of {len})", side.name(), io.index));
    Some(())
}

// ---- graph.input.type-mismatch -------------------------------------------------------

/// An array input element the graph never reads: `(read, unread element)`.
fn unread_elements(e: &Edit) -> Vec<(Io, u64)> {
    let reads = ios(e, Side::Input);
    let mut out = Vec::new();
    for io in reads.iter().filter(|io| io.element.is_some()) {
        let Some((_, len)) = array_of(e, io.slot_ty) else { continue };
        for k in 0..len.min(64) {
            let read = reads.iter().any(|r| r.span == io.span && r.index == io.index && r.element == Some(k));
            if !read && !out.iter().any(|(o, x): &(Io, u64)| o.span == io.span && o.index == io.index && *x == k) {
                out.push((*io, k));
            }
        }
    }
    out
}

/// A new read (result unused) of an unread array element, with a Result
/// Type other than the array's element type. A plain input cannot be read
/// twice (duplicate index) and its one read feeds operators that need the
/// right type, hence the unread element.
fn unread_element_wrong_type(e: &mut Edit) -> Option<()> {
    let cands = unread_elements(e);
    let (io, k) = e.choose(&cands)?;
    let (element_ty, _) = array_of(e, io.slot_ty)?;
    let wrong = other_tensor_type(e, element_ty)?;
    let index = e.const_u32(u32::try_from(io.index).ok()?);
    let el = e.const_u32(u32::try_from(k).ok()?);
    let at = nth(e, Side::Input, io.ordinal)?;
    let result = e.fresh_id();
    e.insert(at + 1, Inst::GraphInput { ty: wrong, result, input_index: index, element_index: Some(el) });
    e.note(format!(
        "new read of unread element {k} of input {} with Result Type %{} (element type %{})",
        io.index, wrong.0, element_ty.0
    ));
    Some(())
}

/// The only read of an array input drops its ElementIndex but keeps the
/// element's tensor type: without ElementIndex the Result Type must be the
/// array type itself.
fn array_read_without_element(e: &mut Edit) -> Option<()> {
    let reads = ios(e, Side::Input);
    let single: Vec<Io> = reads
        .iter()
        .copied()
        .filter(|io| io.element.is_some())
        .filter(|io| reads.iter().filter(|r| r.span == io.span && r.index == io.index).count() == 1)
        .collect();
    let io = e.choose(&single)?;
    let at = nth(e, Side::Input, io.ordinal)?;
    match e.module.insts.get_mut(at)? {
        Inst::GraphInput { element_index, .. } => *element_index = None,
        _ => return None,
    }
    e.note(format!("the one read of array input {} has no ElementIndex but the element's Result Type", io.index));
    Some(())
}

// ---- outputs ---------------------------------------------------------------------

/// An extra write (of a value already written) to OutputIndex past the end.
fn extra_write_past_end(e: &mut Edit) -> Option<()> {
    let writes = ios(e, Side::Output);
    let io = e.choose(&writes)?;
    let n = side_types(e, io.span, Side::Output)?.len() as u32;
    let v = if e.int_in(0, 7) == 0 { u32::MAX } else { n.saturating_add(e.int_in(0, 3) as u32) };
    let c = e.const_u32(v);
    let at = nth(e, Side::Output, io.ordinal)?;
    let Some(Inst::GraphSetOutput { value, .. }) = e.module.insts.get(at) else { return None };
    let value = *value;
    e.insert(at + 1, Inst::GraphSetOutput { value, output_index: c, element_index: None });
    e.note(format!("extra OpGraphSetOutputARM with OutputIndex {v} but the graph has {n} outputs"));
    Some(())
}

fn repeat_write(e: &mut Edit) -> Option<()> {
    let writes = ios(e, Side::Output);
    let io = e.choose(&writes)?;
    let at = nth(e, Side::Output, io.ordinal)?;
    let copy = e.module.insts.get(at)?.clone();
    e.insert(at + 1, copy);
    e.note(format!("OpGraphSetOutputARM of OutputIndex {} repeated", io.index));
    Some(())
}

/// The values usable at instruction `at` of graph `span` whose type is a
/// tensor type: graph values defined before `at` and global tensor constants.
fn tensor_values(e: &Edit, span: GraphSpan, at: usize) -> Vec<(Id, Id)> {
    let is_tensor = |ty: Id| matches!(e.def(ty), Some(Inst::TypeTensor { .. }));
    let mut out = Vec::new();
    for (i, inst) in e.module.insts.iter().enumerate() {
        let usable = match inst {
            Inst::ConstantComposite { .. }
            | Inst::ConstantNull { .. }
            | Inst::ConstantCompositeReplicate { .. }
            | Inst::GraphConstant { .. } => i < span.begin,
            Inst::GraphInput { .. } | Inst::Tosa { .. } | Inst::CompositeExtract { .. } => span.begin < i && i < at,
            _ => false,
        };
        if !usable {
            continue;
        }
        if let (Some(ty), Some(r)) = (inst.result_type(), inst.result_id()) {
            if is_tensor(ty) {
                out.push((r, ty));
            }
        }
    }
    out
}

/// The type a write of `io` must have.
fn expected_type(e: &Edit, io: &Io) -> Option<Id> {
    match io.element {
        Some(_) => array_of(e, io.slot_ty).map(|(el, _)| el),
        None => Some(io.slot_ty),
    }
}

/// A second write to the same OutputIndex/ElementIndex, of another value of the right type when there is one.
fn second_value_same_index(e: &mut Edit) -> Option<()> {
    let writes = ios(e, Side::Output);
    let io = e.choose(&writes)?;
    let want = expected_type(e, &io)?;
    let at = nth(e, Side::Output, io.ordinal)?;
    let mut copy = e.module.insts.get(at)?.clone();
    let Inst::GraphSetOutput { value, .. } = &mut copy else { return None };
    let same: Vec<Id> =
        tensor_values(e, io.span, at).into_iter().filter(|&(v, t)| t == want && v != *value).map(|(v, _)| v).collect();
    let v = e.choose(&same)?;
    *value = v;
    e.insert(at + 1, copy);
    e.note(format!("OutputIndex {} written twice (second write: %{})", io.index, v.0));
    Some(())
}

/// A write of a value whose tensor type differs from the output type.
fn write_wrong_value(e: &mut Edit) -> Option<()> {
    let writes = ios(e, Side::Output);
    let io = e.choose(&writes)?;
    let want = expected_type(e, &io)?;
    let at = nth(e, Side::Output, io.ordinal)?;
    let wrong: Vec<(Id, Id)> = tensor_values(e, io.span, at).into_iter().filter(|&(_, t)| t != want).collect();
    let (v, t) = e.choose(&wrong)?;
    let old = match e.module.insts.get_mut(at)? {
        Inst::GraphSetOutput { value, .. } => std::mem::replace(value, v),
        _ => return None,
    };
    e.note(format!(
        "output {} written with %{} of type %{} instead of %{} (type %{})",
        io.index, v.0, t.0, old.0, want.0
    ));
    Some(())
}

fn drop_output_writes(e: &mut Edit) -> Option<()> {
    let graphs = e.graphs();
    let g = e.choose(&graphs)?;
    let before = e.module.insts.len();
    let mut i = 0;
    e.module.insts.retain(|inst| {
        let inside = g.begin < i && i < g.end;
        i += 1;
        !(inside && matches!(inst, Inst::GraphSetOutput { .. }))
    });
    let n = before - e.module.insts.len();
    if n == 0 {
        return None;
    }
    e.note(format!("removed the {n} OpGraphSetOutputARM of graph %{}", g.id.0));
    Some(())
}

// ---- graph.composite-extract -------------------------------------------------------

/// A dead copy (fresh unused result) of an OpCompositeExtract; returns its index.
fn dead_extract(e: &mut Edit) -> Option<usize> {
    let extracts = e.indices(|i| matches!(i, Inst::CompositeExtract { .. }));
    let at = e.choose(&extracts)?;
    let mut copy = e.module.insts.get(at)?.clone();
    let fresh = e.fresh_id();
    match &mut copy {
        Inst::CompositeExtract { result, .. } => *result = fresh,
        _ => return None,
    }
    e.insert(at + 1, copy);
    Some(at + 1)
}

fn struct_members(e: &Edit, composite: Id) -> Option<usize> {
    let ty = e.def(composite)?.result_type()?;
    match e.def(ty)? {
        Inst::TypeStruct { members, .. } => Some(members.len()),
        _ => None,
    }
}

fn extract_index_past_struct(e: &mut Edit) -> Option<()> {
    let at = dead_extract(e)?;
    let Some(Inst::CompositeExtract { composite, .. }) = e.module.insts.get(at) else { return None };
    let n = struct_members(e, *composite)? as u32;
    let k = if e.int_in(0, 7) == 0 { u32::MAX } else { n.saturating_add(e.int_in(0, 2) as u32) };
    let Inst::CompositeExtract { indices, .. } = e.module.insts.get_mut(at)? else { return None };
    *indices.first_mut()? = k;
    e.note(format!("dead OpCompositeExtract of member {k} of a {n}-member struct"));
    Some(())
}

fn extract_wrong_type(e: &mut Edit) -> Option<()> {
    let at = dead_extract(e)?;
    let Some(Inst::CompositeExtract { ty, result, .. }) = e.module.insts.get(at) else { return None };
    let (old, result) = (*ty, *result);
    let wrong = other_tensor_type(e, old)?;
    // A new type declaration shifts the graph: find the copy by its result.
    let at = e.def_index(result)?;
    let Inst::CompositeExtract { ty, .. } = e.module.insts.get_mut(at)? else { return None };
    *ty = wrong;
    e.note(format!("dead OpCompositeExtract with Result Type %{} (the member is %{})", wrong.0, old.0));
    Some(())
}

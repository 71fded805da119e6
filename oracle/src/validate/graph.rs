//! SPV_ARM_graph rules inside graph definitions: the graph type, inputs and
//! outputs (index operands, ranges, duplicates, types), and
//! `OpCompositeExtract` of multi-result operators.

use super::context::{Cx, GraphSpan};
use spvgraph_ir::elem::ScalarKind;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;

/// The input and output types of an `OpTypeGraphARM` (borrowed from the
/// module, so nothing is copied).
pub fn graph_io<'m>(cx: &Cx<'m>, ty: Id) -> Option<(&'m [Id], &'m [Id])> {
    match cx.def(ty)? {
        Inst::TypeGraph { num_inputs, io, .. } => Some(io.split_at((*num_inputs as usize).min(io.len()))),
        _ => None,
    }
}

/// Which side of the graph interface an index selects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Input,
    Output,
}

struct SideRules {
    not_constant: RuleId,
    index_type: RuleId,
    range: RuleId,
    duplicate: RuleId,
    element: RuleId,
    type_mismatch: RuleId,
    label: &'static str,
}

impl Side {
    fn rules(self) -> SideRules {
        match self {
            Side::Input => SideRules {
                not_constant: RuleId::GraphInputIndexNotConstant,
                index_type: RuleId::GraphInputIndexType,
                range: RuleId::GraphInputIndexRange,
                duplicate: RuleId::GraphInputDuplicateIndex,
                element: RuleId::GraphInputElementIndex,
                type_mismatch: RuleId::GraphInputType,
                label: "InputIndex",
            },
            Side::Output => SideRules {
                not_constant: RuleId::GraphOutputIndexNotConstant,
                index_type: RuleId::GraphOutputIndexType,
                range: RuleId::GraphOutputIndexRange,
                duplicate: RuleId::GraphOutputDuplicateIndex,
                element: RuleId::GraphOutputElementIndex,
                type_mismatch: RuleId::GraphOutputType,
                label: "OutputIndex",
            },
        }
    }
}

/// Reads an index operand: `Err(())` when a problem was reported (or the
/// value cannot be known), `Ok(v)` otherwise.
fn index_value(cx: &mut Cx<'_>, i: usize, id: Id, rules: &SideRules, what: &str) -> Result<u64, ()> {
    let Some(def) = cx.def(id) else { return Err(()) };
    if !def.is_constant() {
        // Outside Vulkan the index is only required to be a 32-bit integer;
        // a non-constant one cannot be checked further.
        if cx.vulkan() {
            cx.at(i, rules.not_constant, format_args!("{what} %{} is not the result of a constant instruction", id.0));
        }
        return Err(());
    }
    let ty = def.result_type();
    match ty.and_then(|t| cx.scalar(t)) {
        Some(ScalarKind::Int { width: 32, .. }) => {}
        _ => {
            cx.at(i, rules.index_type, format_args!("{what} %{} is not a 32-bit integer", id.0));
            return Err(());
        }
    }
    cx.const_uint(id).ok_or(())
}

/// The array element of an interface type, with the array length (None for runtime arrays).
fn array_element(cx: &Cx<'_>, ty: Id) -> Option<(Id, Option<u64>)> {
    match cx.def(ty)? {
        Inst::TypeArray { element, length, .. } => Some((*element, cx.const_uint(*length))),
        Inst::TypeRuntimeArray { element, .. } => Some((*element, None)),
        _ => None,
    }
}

/// Checks one OpGraphInputARM / OpGraphSetOutputARM; returns its
/// `(index, element index)` when both are known, for the duplicate check.
fn check_io(
    cx: &mut Cx<'_>,
    i: usize,
    side: Side,
    types: &[Id],
    index: Id,
    element: Option<Id>,
    actual: Option<Id>,
) -> Option<(u64, Option<u64>)> {
    let rules = side.rules();
    let idx = index_value(cx, i, index, &rules, rules.label).ok()?;
    let elem = match element {
        Some(e) => Some(index_value(cx, i, e, &rules, "ElementIndex").ok()?),
        None => None,
    };
    let Some(&io_ty) = usize::try_from(idx).ok().and_then(|k| types.get(k)) else {
        cx.at(
            i,
            rules.range,
            format_args!(
                "{} {idx} is out of range: the graph type has {} {}s",
                rules.label,
                types.len(),
                if side == Side::Input { "input" } else { "output" }
            ),
        );
        return None;
    };
    let expected = match (elem, array_element(cx, io_ty)) {
        (None, _) => io_ty,
        (Some(e), Some((element_ty, len))) => {
            if len.is_some_and(|n| e >= n) {
                cx.at(
                    i,
                    rules.element,
                    format_args!("ElementIndex {e} is past the end of the array (length {})", len.unwrap_or(0)),
                );
                return Some((idx, Some(e)));
            }
            element_ty
        }
        (Some(_), None) => {
            cx.at(
                i,
                rules.element,
                format_args!("ElementIndex is given but {} {idx} is not an array of tensors", rules.label),
            );
            return Some((idx, elem));
        }
    };
    if let Some(actual) = actual {
        if actual != expected {
            let what = if side == Side::Input { "Result Type" } else { "the type of Value" };
            cx.at(
                i,
                rules.type_mismatch,
                format_args!("{what} is %{} but the graph's {} type is %{}", actual.0, rules.label, expected.0),
            );
        }
    }
    Some((idx, elem))
}

fn check_duplicates(cx: &mut Cx<'_>, side: Side, seen: &[(usize, u64, Option<u64>)]) {
    let rule = side.rules().duplicate;
    for (k, (i, idx, elem)) in seen.iter().enumerate() {
        let clash = seen[..k].iter().any(|(_, j, e)| j == idx && (elem.is_none() || e.is_none() || e == elem));
        if clash {
            cx.at(
                *i,
                rule,
                format_args!(
                    "{} {idx} is used twice in this graph without distinct ElementIndex values",
                    side.rules().label
                ),
            );
        }
    }
}

fn check_extract(cx: &mut Cx<'_>, i: usize, ty: Id, composite: Id, indices: &[u32]) {
    let Some(mut current) = cx.type_of(composite) else { return };
    for &k in indices {
        let next = match cx.def(current) {
            Some(Inst::TypeStruct { members, .. }) => members.get(k as usize).copied(),
            // A length that is not a known constant (a specialization
            // constant) cannot bound the index, as in spirv-val.
            Some(Inst::TypeArray { element, length, .. }) => match cx.const_uint(*length) {
                Some(n) => (u64::from(k) < n).then_some(*element),
                None => Some(*element),
            },
            // Any index selects an element of a runtime array (a graph input
            // may be one: VUID-StandaloneSpirv-OpTypeRuntimeArray-04680).
            Some(Inst::TypeRuntimeArray { element, .. }) => Some(*element),
            _ => None,
        };
        match next {
            Some(t) => current = t,
            None => {
                cx.at(
                    i,
                    RuleId::GraphCompositeExtract,
                    format_args!("index {k} does not select a member of composite type %{}", current.0),
                );
                return;
            }
        }
    }
    if indices.is_empty() {
        cx.at(i, RuleId::GraphCompositeExtract, "OpCompositeExtract needs at least one index");
    } else if current != ty {
        cx.at(
            i,
            RuleId::GraphCompositeExtract,
            format_args!("Result Type %{} differs from the selected member's type %{}", ty.0, current.0),
        );
    }
}

fn check_graph(cx: &mut Cx<'_>, span: &GraphSpan) {
    let io = graph_io(cx, span.ty);
    if io.is_none() && cx.def_index(span.ty).is_some() {
        cx.at(span.begin, RuleId::GraphType, format_args!("Result Type %{} is not an OpTypeGraphARM", span.ty.0));
    }
    // An unclosed graph ends where the next OpGraphARM (a nested one, a
    // layout error) begins, not at the end of the module: later graphs'
    // inputs and outputs are theirs.
    let next = cx.graphs.iter().map(|g| g.begin).filter(|&b| b > span.begin).min();
    let end = span.end.unwrap_or_else(|| next.map_or(cx.insts.len(), |b| b).saturating_sub(1));
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let insts = cx.insts;
    for i in span.begin..=end.min(insts.len().saturating_sub(1)) {
        let Some(inst) = insts.get(i) else { break };
        match inst {
            Inst::GraphInput { ty, input_index, element_index, .. } => {
                if let Some((ins, _)) = io.as_ref() {
                    if let Some((idx, e)) = check_io(cx, i, Side::Input, ins, *input_index, *element_index, Some(*ty)) {
                        inputs.push((i, idx, e));
                    }
                }
            }
            Inst::GraphSetOutput { value, output_index, element_index } => {
                if let Some((_, outs)) = io.as_ref() {
                    let actual = cx.type_of(*value);
                    if let Some((idx, e)) = check_io(cx, i, Side::Output, outs, *output_index, *element_index, actual) {
                        outputs.push((i, idx, e));
                    }
                }
            }
            Inst::CompositeExtract { ty, composite, indices, .. } => check_extract(cx, i, *ty, *composite, indices),
            _ => {}
        }
    }
    check_duplicates(cx, Side::Input, &inputs);
    check_duplicates(cx, Side::Output, &outputs);
}

/// Runs the graph checks.
pub fn check(cx: &mut Cx<'_>) {
    // Spans are copied one at a time: the checks need `cx` mutably.
    for g in 0..cx.graphs.len() {
        if let Some(span) = cx.graphs.get(g).cloned() {
            check_graph(cx, &span);
        }
    }
}

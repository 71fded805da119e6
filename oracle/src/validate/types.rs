//! Type declarations: tensor types (element, rank, shape), graph types,
//! unique non-aggregate types, variables' pointer types.

use super::context::Cx;
use spvgraph_ir::elem::ScalarKind;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::opname::opcode_name;
use spvgraph_ir::rules::RuleId;

/// What a graph input or output type may be.
pub fn is_interface_type(cx: &Cx<'_>, ty: Id) -> bool {
    match cx.def(ty) {
        Some(Inst::TypeTensor { .. }) => true,
        Some(Inst::TypeArray { element, .. } | Inst::TypeRuntimeArray { element, .. }) => {
            matches!(cx.def(*element), Some(Inst::TypeTensor { .. }))
        }
        _ => false,
    }
}

fn is_scalar_int_constant(cx: &Cx<'_>, id: Id) -> bool {
    match cx.def(id) {
        Some(Inst::Constant { ty, .. }) => matches!(cx.scalar(*ty), Some(ScalarKind::Int { .. })),
        Some(Inst::ConstantNull { ty, .. }) => matches!(cx.scalar(*ty), Some(ScalarKind::Int { .. })),
        Some(Inst::Raw { .. }) => {
            // OpSpecConstantOp yields a constant of its Result Type.
            cx.def(id).is_some_and(Inst::is_constant)
                && cx.type_of(id).and_then(|t| cx.scalar(t)).is_some_and(|k| matches!(k, ScalarKind::Int { .. }))
        }
        _ => false,
    }
}

/// Checks the `k`-th tensor type, declared by instruction `i`.
fn check_tensor(cx: &mut Cx<'_>, (k, i): (usize, usize), element: Id, rank: Option<Id>, shape: Option<Id>) {
    if cx.def_index(element).is_some() && cx.scalar(element).is_none() {
        let what = cx.def(element).map(|d| opcode_name(d.opcode())).unwrap_or_default();
        cx.at(
            i,
            RuleId::TypesTensorElement,
            format_args!("Element Type %{} is {what}, not a scalar integer, float or bool type", element.0),
        );
    }
    let Some(rank) = rank else { return };
    if cx.def_index(rank).is_none() {
        return;
    }
    if !is_scalar_int_constant(cx, rank) {
        cx.at(i, RuleId::TypesTensorRankNotConstant, format_args!("Rank %{} is not a constant scalar integer", rank.0));
        return;
    }
    let rank_value = cx.const_uint(rank);
    if rank_value == Some(0) {
        cx.at(i, RuleId::TypesTensorRankZero, "Rank is 0; a tensor's rank must be at least 1");
    }
    let Some(shape) = shape else { return };
    let Some(shape_def) = cx.def(shape) else { return };
    let array = match shape_def {
        Inst::ConstantComposite { ty, .. } | Inst::ConstantNull { ty, .. } => match cx.def(*ty) {
            Some(Inst::TypeArray { element, length, .. })
                if matches!(cx.scalar(*element), Some(ScalarKind::Int { .. })) =>
            {
                Some(*length)
            }
            _ => None,
        },
        _ => None,
    };
    let Some(length) = array else {
        cx.at(
            i,
            RuleId::TypesTensorShapeNotConstant,
            format_args!("Shape %{} is not a constant of an OpTypeArray of integers", shape.0),
        );
        return;
    };
    if let (Some(len), Some(r)) = (cx.const_uint(length), rank_value) {
        if len != r {
            cx.at(i, RuleId::TypesTensorShapeLength, format_args!("Shape has {len} entries but Rank is {r}"));
            return;
        }
    }
    // The shape values were read when the type was resolved.
    let zero = cx.tensor_nth(k, i).and_then(|t| cx.shape(t)).and_then(|v| v.iter().position(|&d| d == 0));
    if let Some(k) = zero {
        cx.at(
            i,
            RuleId::TypesTensorShapeZero,
            format_args!("Shape entry {k} is 0; every dimension must be at least 1"),
        );
    }
}

/// Key of a non-aggregate, non-pointer type other than a graph type (opcode
/// and operands packed into one integer, so that sorting is cheap), for the
/// uniqueness rule. Tensor and graph types are not aggregates, so they are
/// unique too (spirv-val agrees).
fn key(inst: &Inst) -> Option<u128> {
    // An optional operand takes 33 bits: present flag, then the value.
    let opt = |v: Option<u32>| v.map_or(0u128, |v| (1u128 << 32) | u128::from(v));
    let (tag, operands) = match inst {
        Inst::TypeVoid { .. } => (0u128, 0u128),
        Inst::TypeBool { .. } => (1, 0),
        Inst::TypeInt { width, signedness, .. } => (2, (u128::from(*width) << 32) | u128::from(*signedness)),
        Inst::TypeFloat { width, encoding, .. } => (3, (u128::from(*width) << 33) | opt(*encoding)),
        Inst::TypeTensor { element, rank, shape, .. } => {
            (4, (u128::from(element.0) << 66) | (opt(rank.map(|r| r.0)) << 33) | opt(shape.map(|s| s.0)))
        }
        _ => return None,
    };
    Some((tag << 98) | operands)
}

/// Reports each type declared again, naming the previous declaration of the
/// same type; `keyed` holds (key, instruction index) pairs.
fn report_duplicates<K: Ord>(cx: &mut Cx<'_>, keyed: &mut [(K, usize)]) {
    // Sorting (key, index) pairs puts each duplicate right after the
    // previous declaration of its type.
    keyed.sort_unstable();
    for pair in keyed.windows(2) {
        if let [(a, first), (b, i)] = pair {
            if a == b {
                let what = cx.insts.get(*i).map(|x| opcode_name(x.opcode())).unwrap_or_default();
                cx.at(*i, RuleId::TypesDuplicate, format_args!("{what} declares the same type as instruction {first}"));
            }
        }
    }
}

/// Runs the type checks.
pub fn check(cx: &mut Cx<'_>) {
    let insts = cx.insts;
    let mut keys = std::mem::take(&mut cx.type_keys);
    keys.clear();
    let mut graph_types: Vec<((u32, &[Id]), usize)> = Vec::new();
    let list = std::mem::take(&mut cx.lists.types);
    for (i, inst) in list.iter().filter_map(|&i| Some((i, insts.get(i)?))) {
        match inst {
            Inst::TypeGraph { num_inputs, io, .. } => graph_types.push(((*num_inputs, io.as_slice()), i)),
            _ => {
                if let Some(k) = key(inst) {
                    keys.push((k, i));
                }
            }
        }
    }
    cx.lists.types = list;
    report_duplicates(cx, &mut keys);
    cx.type_keys = keys;
    report_duplicates(cx, &mut graph_types);
    let list = std::mem::take(&mut cx.lists.types);
    let mut tensor_k = 0;
    for (i, inst) in list.iter().filter_map(|&i| Some((i, insts.get(i)?))) {
        match inst {
            Inst::TypeTensor { element, rank, shape, .. } => {
                check_tensor(cx, (tensor_k, i), *element, *rank, *shape);
                tensor_k += 1;
            }
            Inst::TypeGraph { num_inputs, io, .. } => {
                if *num_inputs as usize >= io.len() {
                    cx.at(
                        i,
                        RuleId::TypesGraphOutputs,
                        format_args!(
                            "NumInputs is {num_inputs} but only {} InOut types follow: a graph type needs at least one output",
                            io.len()
                        ),
                    );
                }
                for (k, ty) in io.iter().enumerate() {
                    if cx.def_index(*ty).is_some() && !is_interface_type(cx, *ty) {
                        cx.at(
                            i,
                            RuleId::TypesGraphInterfaceType,
                            format_args!("InOut type {k} (%{}) is not a tensor type or an array of tensor types", ty.0),
                        );
                    }
                }
            }
            Inst::Variable { ty, storage, .. } => match cx.def(*ty) {
                Some(Inst::TypePointer { storage: ps, .. }) if ps == storage => {}
                Some(Inst::TypePointer { storage: ps, .. }) => cx.at(
                    i,
                    RuleId::TypesVariablePointer,
                    format_args!("the variable's Storage Class {storage} differs from its pointer type's {ps}"),
                ),
                Some(_) => {
                    cx.at(i, RuleId::TypesVariablePointer, "the Result Type of OpVariable is not a pointer type")
                }
                None => {}
            },
            _ => {}
        }
    }
    cx.lists.types = list;
}

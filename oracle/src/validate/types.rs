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

fn check_tensor(cx: &mut Cx<'_>, i: usize, element: Id, rank: Option<Id>, shape: Option<Id>) {
    if cx.def_index(element).is_some() && cx.scalar(element).is_none() {
        let what = cx.def(element).map(|d| opcode_name(d.opcode())).unwrap_or_default();
        cx.at(
            i,
            RuleId::TypesTensorElement,
            format!("Element Type %{} is {what}, not a scalar integer, float or bool type", element.0),
        );
    }
    let Some(rank) = rank else { return };
    if cx.def_index(rank).is_none() {
        return;
    }
    if !is_scalar_int_constant(cx, rank) {
        cx.at(i, RuleId::TypesTensorRankNotConstant, format!("Rank %{} is not a constant scalar integer", rank.0));
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
            format!("Shape %{} is not a constant of an OpTypeArray of integers", shape.0),
        );
        return;
    };
    if let (Some(len), Some(r)) = (cx.const_uint(length), rank_value) {
        if len != r {
            cx.at(i, RuleId::TypesTensorShapeLength, format!("Shape has {len} entries but Rank is {r}"));
            return;
        }
    }
    // The shape values were read when the type was resolved.
    let zero = cx.tensor_at(i).and_then(|t| t.shape.as_ref()).and_then(|v| v.iter().position(|&d| d == 0));
    if let Some(k) = zero {
        cx.at(i, RuleId::TypesTensorShapeZero, format!("Shape entry {k} is 0; every dimension must be at least 1"));
    }
}

/// Key of a non-aggregate, non-pointer type (opcode and operands), for the
/// uniqueness rule. Tensor and graph types are not aggregates, so they are
/// unique too (spirv-val agrees).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Key<'a> {
    Void,
    Bool,
    Int(u32, u32),
    Float(u32, Option<u32>),
    Tensor(Id, Option<Id>, Option<Id>),
    Graph(u32, &'a [Id]),
}

/// Runs the type checks.
pub fn check(cx: &mut Cx<'_>) {
    let insts = cx.insts;
    // Sorting (key, index) pairs puts each duplicate right after the first
    // declaration of its type.
    let mut keys: Vec<(Key<'_>, usize)> = insts
        .iter()
        .enumerate()
        .filter_map(|(i, inst)| {
            let key = match inst {
                Inst::TypeVoid { .. } => Key::Void,
                Inst::TypeBool { .. } => Key::Bool,
                Inst::TypeInt { width, signedness, .. } => Key::Int(*width, *signedness),
                Inst::TypeFloat { width, encoding, .. } => Key::Float(*width, *encoding),
                Inst::TypeTensor { element, rank, shape, .. } => Key::Tensor(*element, *rank, *shape),
                Inst::TypeGraph { num_inputs, io, .. } => Key::Graph(*num_inputs, io),
                _ => return None,
            };
            Some((key, i))
        })
        .collect();
    keys.sort_unstable();
    for pair in keys.windows(2) {
        if let [(a, first), (b, i)] = pair {
            if a == b {
                let what = insts.get(*i).map(|x| opcode_name(x.opcode())).unwrap_or_default();
                cx.at(*i, RuleId::TypesDuplicate, format!("{what} declares the same type as instruction {first}"));
            }
        }
    }
    for (i, inst) in insts.iter().enumerate() {
        match inst {
            Inst::TypeTensor { element, rank, shape, .. } => check_tensor(cx, i, *element, *rank, *shape),
            Inst::TypeGraph { num_inputs, io, .. } => {
                if *num_inputs as usize >= io.len() {
                    cx.at(
                        i,
                        RuleId::TypesGraphOutputs,
                        format!(
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
                            format!("InOut type {k} (%{}) is not a tensor type or an array of tensor types", ty.0),
                        );
                    }
                }
            }
            Inst::Variable { ty, storage, .. } => match cx.def(*ty) {
                Some(Inst::TypePointer { storage: ps, .. }) if ps == storage => {}
                Some(Inst::TypePointer { storage: ps, .. }) => cx.at(
                    i,
                    RuleId::TypesVariablePointer,
                    format!("the variable's Storage Class {storage} differs from its pointer type's {ps}"),
                ),
                Some(_) => {
                    cx.at(i, RuleId::TypesVariablePointer, "the Result Type of OpVariable is not a pointer type")
                }
                None => {}
            },
            _ => {}
        }
    }
}

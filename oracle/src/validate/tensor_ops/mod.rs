//! SPV_ARM_tensors instructions wherever they appear (in practice, function
//! bodies): `OpTensorReadARM`, `OpTensorWriteARM`, `OpTensorQuerySizeARM`,
//! `OpCompositeConstructReplicateEXT` of a tensor type, and the
//! NonReadable/NonWritable decorations tensor variables may take
//! ([`decorations`]).
//!
//! Everything else in function bodies (control flow, other instructions,
//! dominance) stays out of scope; the operand ids these instructions use are
//! checked to be defined, since the id checks skip function bodies.

mod decorations;

use super::context::Cx;
use spvgraph_ir::elem::ScalarKind;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::opname::opcode_name;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor_access::{
    ConstructReplicate, TensorAccess, TensorOperands, MAKE_ELEMENT_AVAILABLE, MAKE_ELEMENT_VISIBLE,
    NON_PRIVATE_ELEMENT, OUT_OF_BOUNDS_VALUE,
};

/// The largest Scope enumerant (`ShaderCallKHR`).
const MAX_SCOPE: u64 = spirv::Scope::ShaderCallKHR as u64;

/// Runs the checks of this module.
pub fn check(cx: &mut Cx<'_>) {
    let list = std::mem::take(&mut cx.lists.tensor_ops);
    for &i in &list {
        let Some(inst) = cx.insts.get(i) else { continue };
        match TensorAccess::from_inst(inst) {
            Some(Ok(access)) => check_access(cx, i, &access),
            Some(Err(e)) => cx.at(i, RuleId::BinaryOperands, e.to_string()),
            None => {
                if let Some(r) = ConstructReplicate::from_inst(inst) {
                    check_replicate(cx, i, &r);
                }
            }
        }
    }
    cx.lists.tensor_ops = list;
    decorations::check(cx);
}

/// What the checks need about the tensor operand's type.
#[derive(Clone, Copy)]
struct Accessed {
    /// Its Element Type.
    element: Id,
    /// Its Rank, when it is a non-specialization constant.
    rank: Option<u64>,
}

/// The tensor type of `value` when it is a ranked tensor.
fn ranked_tensor(cx: &Cx<'_>, value: Id) -> Option<Accessed> {
    let ty = cx.type_of(value)?;
    match cx.def(ty)? {
        Inst::TypeTensor { element, rank: Some(rank), .. } => {
            Some(Accessed { element: *element, rank: cx.const_uint(*rank) })
        }
        _ => None,
    }
}

/// `ty` when it is a scalar type, or the element of an `OpTypeArray` of scalars.
fn scalar_or_array_element(cx: &Cx<'_>, ty: Id) -> Option<Id> {
    match cx.def(ty)? {
        Inst::TypeArray { element, .. } => cx.scalar(*element).map(|_| *element),
        _ => cx.scalar(ty).map(|_| ty),
    }
}

/// Names a type for messages: `%7 (OpTypeFloat)`.
fn describe(cx: &Cx<'_>, ty: Id) -> String {
    match cx.def(ty) {
        Some(inst) => format!("%{} ({})", ty.0, opcode_name(inst.opcode())),
        None => format!("%{}", ty.0),
    }
}

/// What a value's type is, for messages: `type %7 (OpTypeFloat)` or `no type`
/// (labels, types and other ids that are not values).
fn type_phrase(cx: &Cx<'_>, ty: Option<Id>) -> String {
    ty.map_or_else(|| "no type".to_string(), |t| format!("type {}", describe(cx, t)))
}

fn check_access(cx: &mut Cx<'_>, i: usize, access: &TensorAccess) {
    let name = access.name();
    // The id checks skip function bodies: an undefined operand is reported
    // here, and nothing else is checked on an instruction that has one.
    let mut undefined = false;
    let result_type = match access {
        TensorAccess::Read { ty, .. } | TensorAccess::QuerySize { ty, .. } => Some(*ty),
        TensorAccess::Write { .. } => None,
    };
    for id in result_type.into_iter().chain(access.value_ids()) {
        if cx.def_index(id).is_none() {
            cx.at(i, RuleId::IdsUndefined, format_args!("%{} is used by {name} but never defined", id.0));
            undefined = true;
        }
    }
    if undefined {
        return;
    }
    if let Some(ty) = result_type {
        if !cx.def(ty).is_some_and(Inst::is_type) {
            cx.at(i, RuleId::IdsNotAType, format_args!("the Result Type %{} of {name} is not a type", ty.0));
            return;
        }
    }
    let tensor = ranked_tensor(cx, access.tensor());
    if tensor.is_none() {
        let what = type_phrase(cx, cx.type_of(access.tensor()));
        cx.at(
            i,
            RuleId::TensorAccessNotRanked,
            format_args!(
                "the Tensor operand %{} of {name} has {what}, not a ranked OpTypeTensorARM",
                access.tensor().0
            ),
        );
    }
    match *access {
        TensorAccess::Read { ty, coordinates, operands, .. } => {
            match scalar_or_array_element(cx, ty) {
                None => cx.at(
                    i,
                    RuleId::TensorReadResultType,
                    format_args!(
                        "the Result Type {} is not a scalar type or an array of a scalar type",
                        describe(cx, ty)
                    ),
                ),
                Some(scalar) => {
                    if let Some(t) = tensor.filter(|t| t.element != scalar) {
                        cx.at(
                            i,
                            RuleId::TensorReadResultType,
                            format_args!(
                                "the Result Type's scalar type {} is not the tensor's Element Type {}",
                                describe(cx, scalar),
                                describe(cx, t.element)
                            ),
                        );
                    }
                }
            }
            check_coordinates(cx, i, name, coordinates, tensor);
            if let Some(o) = operands {
                check_operands(cx, i, access, &o, tensor);
            }
        }
        TensorAccess::Write { coordinates, object, operands, .. } => {
            check_coordinates(cx, i, name, coordinates, tensor);
            let object_ty = cx.type_of(object);
            match object_ty.and_then(|t| scalar_or_array_element(cx, t)) {
                None => {
                    let what = type_phrase(cx, object_ty);
                    cx.at(
                        i,
                        RuleId::TensorWriteObjectType,
                        format_args!("Object %{} has {what}, not a scalar type or an array of a scalar type", object.0),
                    );
                }
                Some(scalar) => {
                    if let Some(t) = tensor.filter(|t| t.element != scalar) {
                        cx.at(
                            i,
                            RuleId::TensorWriteObjectType,
                            format_args!(
                                "Object's scalar type {} is not the tensor's Element Type {}",
                                describe(cx, scalar),
                                describe(cx, t.element)
                            ),
                        );
                    }
                }
            }
            if let Some(o) = operands {
                check_operands(cx, i, access, &o, tensor);
            }
        }
        TensorAccess::QuerySize { ty, dimension, .. } => {
            if !matches!(cx.scalar(ty), Some(ScalarKind::Int { .. })) {
                cx.at(
                    i,
                    RuleId::TensorQueryResultType,
                    format_args!("the Result Type {} is not an integer scalar type", describe(cx, ty)),
                );
            }
            let constant = cx.def(dimension).is_some_and(Inst::is_constant);
            let integer = cx.type_of(dimension).is_some_and(|t| matches!(cx.scalar(t), Some(ScalarKind::Int { .. })));
            if !constant || !integer {
                let what = cx.def(dimension).map(|d| opcode_name(d.opcode())).unwrap_or_default();
                cx.at(
                    i,
                    RuleId::TensorQueryDimensionNotConstant,
                    format_args!(
                        "Dimension %{} ({what}) is not a constant instruction of a scalar integer type",
                        dimension.0
                    ),
                );
            } else if let (Some(d), Some(rank)) = (cx.const_uint(dimension), tensor.and_then(|t| t.rank)) {
                if d >= rank {
                    cx.at(
                        i,
                        RuleId::TensorQueryDimensionRange,
                        format_args!("Dimension {d} is not less than the Rank of Tensor ({rank})"),
                    );
                }
            }
        }
    }
}

/// Coordinates: an integer array whose length is the tensor's rank.
fn check_coordinates(cx: &mut Cx<'_>, i: usize, name: &str, coordinates: Id, tensor: Option<Accessed>) {
    let ty = cx.type_of(coordinates);
    let problem = match ty.and_then(|t| cx.def(t)) {
        Some(Inst::TypeArray { element, length, .. }) => {
            if !matches!(cx.scalar(*element), Some(ScalarKind::Int { .. })) {
                Some(format!("Coordinates is an array of {}, not of an integer type", describe(cx, *element)))
            } else {
                match (cx.const_uint(*length), tensor.and_then(|t| t.rank)) {
                    (Some(len), Some(rank)) if len != rank => {
                        Some(format!("Coordinates has {len} elements but the Rank of Tensor is {rank}"))
                    }
                    _ => None,
                }
            }
        }
        _ => {
            let what = type_phrase(cx, ty);
            Some(format!("Coordinates %{} has {what}, not an OpTypeArray of integers", coordinates.0))
        }
    };
    if let Some(p) = problem {
        cx.at(i, RuleId::TensorAccessCoordinates, format_args!("{name}: {p}"));
    }
}

/// The Tensor Operands of a read or write.
fn check_operands(cx: &mut Cx<'_>, i: usize, access: &TensorAccess, o: &TensorOperands, tensor: Option<Accessed>) {
    let read = matches!(access, TensorAccess::Read { .. });
    let name = access.name();
    // Bits the instruction does not take: each one reported, and not looked
    // at further (a misplaced bit has no rules of its own to break).
    let misplaced: &[(u32, &str)] = if read {
        &[(MAKE_ELEMENT_AVAILABLE, "MakeElementAvailableARM")]
    } else {
        &[(OUT_OF_BOUNDS_VALUE, "OutOfBoundsValueARM"), (MAKE_ELEMENT_VISIBLE, "MakeElementVisibleARM")]
    };
    for (bit, what) in misplaced {
        if o.has(*bit) {
            cx.at(
                i,
                RuleId::TensorOperandsInstruction,
                format_args!("the {what} Tensor Operand is not valid with {name}"),
            );
        }
    }
    let (sync_bit, sync_name, scope) = if read {
        (MAKE_ELEMENT_VISIBLE, "MakeElementVisibleARM", o.visible_scope)
    } else {
        (MAKE_ELEMENT_AVAILABLE, "MakeElementAvailableARM", o.available_scope)
    };
    if o.has(sync_bit) && !o.has(NON_PRIVATE_ELEMENT) {
        cx.at(
            i,
            RuleId::TensorOperandsNonPrivate,
            format_args!("the {sync_name} Tensor Operand requires NonPrivateElementARM, which is not set"),
        );
    }
    if let Some(s) = scope {
        check_scope(cx, i, sync_name, s);
    }
    if let (true, Some(value)) = (read, o.out_of_bounds) {
        let value_ty = cx.type_of(value);
        if let Some(t) = tensor {
            if value_ty != Some(t.element) {
                let what = type_phrase(cx, value_ty);
                cx.at(
                    i,
                    RuleId::TensorOperandsOutOfBoundsType,
                    format_args!(
                        "the OutOfBoundsValueARM value %{} has {what}, not the tensor's Element Type {}",
                        value.0,
                        describe(cx, t.element)
                    ),
                );
            }
        }
        if !cx.def(value).is_some_and(Inst::is_constant) {
            let what = cx.def(value).map(|d| opcode_name(d.opcode())).unwrap_or_default();
            cx.at(
                i,
                RuleId::TensorOperandsOutOfBoundsNotConstant,
                format_args!(
                    "the OutOfBoundsValueARM value %{} is defined by {what}, not a constant instruction",
                    value.0
                ),
            );
        }
    }
}

/// A memory Scope <id>: a constant 32-bit integer holding a Scope enumerant.
fn check_scope(cx: &mut Cx<'_>, i: usize, what: &str, scope: Id) {
    let constant = cx.def(scope).is_some_and(Inst::is_constant);
    let int32 = cx.type_of(scope).is_some_and(|t| matches!(cx.scalar(t), Some(ScalarKind::Int { width: 32, .. })));
    let problem = if !constant || !int32 {
        let def = cx.def(scope).map(|d| opcode_name(d.opcode())).unwrap_or_default();
        Some(format!("the scope %{} after {what} ({def}) is not a constant of a 32-bit integer type", scope.0))
    } else {
        cx.const_uint(scope)
            .filter(|&v| v > MAX_SCOPE)
            .map(|v| format!("the scope after {what} is {v}, which is not a Scope enumerant"))
    };
    if let Some(p) = problem {
        cx.at(i, RuleId::TensorOperandsScope, p);
    }
}

/// `OpCompositeConstructReplicateEXT` with a tensor Result Type.
fn check_replicate(cx: &mut Cx<'_>, i: usize, r: &ConstructReplicate) {
    for id in [r.ty, r.value] {
        if cx.def_index(id).is_none() {
            cx.at(
                i,
                RuleId::IdsUndefined,
                format_args!("%{} is used by OpCompositeConstructReplicateEXT but never defined", id.0),
            );
            return;
        }
    }
    // Other composite Result Types are spirv-val's business.
    let Some(Inst::TypeTensor { element, shape, .. }) = cx.def(r.ty) else { return };
    let (element, shaped) = (*element, shape.is_some());
    if !shaped {
        cx.at(
            i,
            RuleId::TensorReplicateUnshaped,
            format_args!(
                "the Result Type {} is a tensor type without a Shape, which is not a composite type",
                describe(cx, r.ty)
            ),
        );
    }
    let value_ty = cx.type_of(r.value);
    if value_ty != Some(element) {
        let what = type_phrase(cx, value_ty);
        cx.at(
            i,
            RuleId::TensorReplicateValueType,
            format_args!("Value %{} has {what}, not the tensor's Element Type {}", r.value.0, describe(cx, element)),
        );
    }
}

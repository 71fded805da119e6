//! Mutators for the `types.*` rules.
//!
//! Breaking a type that the module uses would cascade into TOSA, graph and
//! interface errors, so most mutators here declare a NEW, unused type (or
//! variable) that breaks the rule by itself. Such a declaration is unique
//! by construction (no valid declaration has the same operands), so it
//! never breaks `types.duplicate` as a side effect.

use super::{no_bias, Edit, Mutator};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;

/// `StorageClass::UniformConstant`.
const UNIFORM_CONSTANT: u32 = 0;
/// `StorageClass::Private`.
const PRIVATE: u32 = 6;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![
        Mutator {
            rule: RuleId::TypesTensorElement,
            name: "non-scalar-element",
            bias: no_bias,
            apply: non_scalar_element,
        },
        Mutator {
            rule: RuleId::TypesTensorRankNotConstant,
            name: "rank-of-other-constant",
            bias: no_bias,
            apply: rank_of_other_constant,
        },
        Mutator { rule: RuleId::TypesTensorRankNotConstant, name: "bool-rank", bias: no_bias, apply: bool_rank },
        Mutator { rule: RuleId::TypesTensorRankZero, name: "rank-zero", bias: no_bias, apply: rank_zero },
        Mutator { rule: RuleId::TypesTensorRankZero, name: "null-rank", bias: no_bias, apply: null_rank },
        Mutator {
            rule: RuleId::TypesTensorShapeNotConstant,
            name: "shape-of-other-constant",
            bias: no_bias,
            apply: shape_of_other_constant,
        },
        Mutator {
            rule: RuleId::TypesTensorShapeLength,
            name: "rank-differs-from-shape",
            bias: no_bias,
            apply: rank_differs_from_shape,
        },
        Mutator { rule: RuleId::TypesTensorShapeZero, name: "zero-dimension", bias: no_bias, apply: zero_dimension },
        Mutator { rule: RuleId::TypesGraphOutputs, name: "no-output", bias: no_bias, apply: graph_no_output },
        Mutator {
            rule: RuleId::TypesGraphInterfaceType,
            name: "non-tensor-io",
            bias: no_bias,
            apply: graph_non_tensor_io,
        },
        Mutator { rule: RuleId::TypesDuplicate, name: "redeclare-type", bias: no_bias, apply: redeclare_type },
        Mutator {
            rule: RuleId::TypesVariablePointer,
            name: "storage-class-mismatch",
            bias: no_bias,
            apply: variable_storage_mismatch,
        },
        Mutator {
            rule: RuleId::TypesVariablePointer,
            name: "non-pointer-type",
            bias: no_bias,
            apply: variable_non_pointer,
        },
    ]
}

// ---- helpers ------------------------------------------------------------------------

/// One of `items` (cloned), drawn like [`Edit::choose`].
fn pick<T: Clone>(e: &mut Edit, items: &[T]) -> Option<T> {
    let i = e.choose(&(0..items.len()).collect::<Vec<usize>>())?;
    items.get(i).cloned()
}

/// Scalar type declarations (integer, float, bool).
fn scalar_types(e: &Edit) -> Vec<Id> {
    e.results_where(|i| matches!(i, Inst::TypeInt { .. } | Inst::TypeFloat { .. } | Inst::TypeBool { .. }))
}

/// Shaped tensor types whose element is a scalar, with their shapes.
fn shaped_tensor_types(e: &Edit) -> Vec<(Id, Vec<u64>)> {
    let a = e.analysis();
    e.module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::TypeTensor { result, shape: Some(_), .. } => {
                let t = a.tensor_type(*result)?;
                a.scalar_kind(t.element)?;
                Some((*result, t.shape?))
            }
            _ => None,
        })
        .collect()
}

/// A valid constant shape array `[dims]` (reused where declared).
fn shape_const(e: &mut Edit, dims: &[u32]) -> Id {
    let u32t = e.int_type(32, 0);
    let arr = e.array_type(u32t, dims.len() as u32);
    let parts: Vec<Id> = dims.iter().map(|&d| e.const_u32(d)).collect();
    e.composite(arr, parts)
}

/// A random shape of rank `rank` (dimensions 1..=8).
fn random_dims(e: &mut Edit, rank: u32) -> Vec<u32> {
    (0..rank).map(|_| e.int_in(1, 8) as u32).collect()
}

/// Ids of every non-spec constant instruction for which `keep(inst)` holds.
fn constants_where(e: &Edit, keep: impl Fn(&Inst) -> bool) -> Vec<Id> {
    e.results_where(|i| {
        matches!(
            i,
            Inst::Constant { spec: false, .. }
                | Inst::ConstantTrue { spec: false, .. }
                | Inst::ConstantFalse { spec: false, .. }
                | Inst::ConstantComposite { spec: false, .. }
                | Inst::ConstantCompositeReplicate { spec: false, .. }
                | Inst::ConstantNull { .. }
        ) && keep(i)
    })
}

// ---- tensor types -------------------------------------------------------------------

/// A new tensor type whose Element Type is a tensor, array, pointer or graph type.
fn non_scalar_element(e: &mut Edit) -> Option<()> {
    let candidates = e.results_where(|i| {
        matches!(
            i,
            Inst::TypeTensor { .. }
                | Inst::TypeArray { .. }
                | Inst::TypePointer { .. }
                | Inst::TypeGraph { .. }
                | Inst::TypeVoid { .. }
        )
    });
    let element = e.choose(&candidates)?;
    // Rank and Shape stay valid so that only the element type is wrong.
    let (rank, shape, form) = match e.int_in(0, 2) {
        0 => (None, None, "unranked".to_string()),
        1 => {
            let r = e.int_in(1, 4) as u32;
            (Some(e.const_u32(r)), None, format!("rank {r}"))
        }
        _ => {
            let r = e.int_in(1, 4) as u32;
            let dims = random_dims(e, r);
            let rank = e.const_u32(r);
            (Some(rank), Some(shape_const(e, &dims)), format!("shape {dims:?}"))
        }
    };
    let what = e.def(element).map(|d| spvgraph_ir::opname::opcode_name(d.opcode())).unwrap_or_default();
    let result = e.fresh_id();
    e.add_global(Inst::TypeTensor { result, element, rank, shape });
    e.note(format!("new unused OpTypeTensorARM %{} ({form}) with Element Type %{} ({what})", result.0, element.0));
    Some(())
}

/// A new tensor type whose Rank is a float, bool or composite constant.
fn rank_of_other_constant(e: &mut Edit) -> Option<()> {
    let not_int: Vec<Id> = {
        let a = e.analysis();
        constants_where(e, |i| {
            let Some(ty) = i.result_type() else { return false };
            !matches!(a.scalar_kind(ty), Some(spvgraph_ir::elem::ScalarKind::Int { .. }))
        })
    };
    let rank = e.choose(&not_int)?;
    let element = e.choose(&scalar_types(e))?;
    let result = e.fresh_id();
    // No Shape: a Shape needs a valid Rank to be checked against.
    e.add_global(Inst::TypeTensor { result, element, rank: Some(rank), shape: None });
    let what = e.def(rank).map(|d| spvgraph_ir::opname::opcode_name(d.opcode())).unwrap_or_default();
    e.note(format!("new unused OpTypeTensorARM %{} whose Rank is %{} ({what}, not an integer)", result.0, rank.0));
    Some(())
}

/// A new tensor type whose Rank is an `OpConstantTrue`/`OpConstantFalse`.
fn bool_rank(e: &mut Edit) -> Option<()> {
    let element = e.choose(&scalar_types(e))?;
    let value = e.flip();
    let rank = e.bool_const(value);
    let result = e.fresh_id();
    e.add_global(Inst::TypeTensor { result, element, rank: Some(rank), shape: None });
    e.note(format!("new unused OpTypeTensorARM %{} whose Rank is the bool constant {value}", result.0));
    Some(())
}

/// A new ranked (unshaped) tensor type of Rank 0.
fn rank_zero(e: &mut Edit) -> Option<()> {
    let element = e.choose(&scalar_types(e))?;
    let ints = e.results_where(|i| matches!(i, Inst::TypeInt { width: 8 | 16 | 32, .. }));
    let int = e.choose(&ints)?;
    let zero = e.constant(int, vec![0]);
    let result = e.fresh_id();
    // Without a Shape: a rank-0 shape array would have length 0, itself invalid.
    e.add_global(Inst::TypeTensor { result, element, rank: Some(zero), shape: None });
    e.note(format!("new unused OpTypeTensorARM %{} of Rank 0 (%{})", result.0, zero.0));
    Some(())
}

/// A new ranked tensor type whose Rank is an `OpConstantNull` of an integer
/// type (a constant scalar integer of value 0).
fn null_rank(e: &mut Edit) -> Option<()> {
    let element = e.choose(&scalar_types(e))?;
    let ints = e.results_where(|i| matches!(i, Inst::TypeInt { .. }));
    let int = e.choose(&ints)?;
    let null = e.null_const(int);
    let result = e.fresh_id();
    e.add_global(Inst::TypeTensor { result, element, rank: Some(null), shape: None });
    e.note(format!("new unused OpTypeTensorARM %{} whose Rank is the OpConstantNull %{}", result.0, null.0));
    Some(())
}

/// A new tensor type whose Shape is a scalar or tensor constant.
fn shape_of_other_constant(e: &mut Edit) -> Option<()> {
    let not_array: Vec<Id> = {
        let m = &e.module;
        constants_where(e, |i| {
            let Some(ty) = i.result_type() else { return false };
            !m.insts.iter().any(|d| matches!(d, Inst::TypeArray { result, .. } if *result == ty))
        })
    };
    let shape = e.choose(&not_array)?;
    let element = e.choose(&scalar_types(e))?;
    let r = e.int_in(1, 4) as u32;
    let rank = e.const_u32(r);
    let result = e.fresh_id();
    e.add_global(Inst::TypeTensor { result, element, rank: Some(rank), shape: Some(shape) });
    let what = e.def(shape).map(|d| spvgraph_ir::opname::opcode_name(d.opcode())).unwrap_or_default();
    e.note(format!("new unused OpTypeTensorARM %{} (rank {r}) whose Shape is %{} ({what})", result.0, shape.0));
    Some(())
}

/// A new tensor type reusing an existing shape array with a different Rank.
fn rank_differs_from_shape(e: &mut Edit) -> Option<()> {
    let shapes: Vec<(Id, usize)> = {
        let a = e.analysis();
        e.module
            .insts
            .iter()
            .filter_map(|i| match i {
                Inst::TypeTensor { shape: Some(s), .. } => Some((*s, a.const_uint_array(*s)?.len())),
                _ => None,
            })
            .collect()
    };
    let (shape, len) = e.choose(&shapes)?;
    let others: Vec<u32> = (1..=6u32).filter(|&r| r as usize != len).collect();
    let r = e.choose(&others)?;
    let element = e.choose(&scalar_types(e))?;
    let rank = e.const_u32(r);
    let result = e.fresh_id();
    e.add_global(Inst::TypeTensor { result, element, rank: Some(rank), shape: Some(shape) });
    e.note(format!("new unused OpTypeTensorARM %{} of Rank {r} with the {len}-entry Shape %{}", result.0, shape.0));
    Some(())
}

/// A new shaped tensor type with a 0 among its dimensions.
fn zero_dimension(e: &mut Edit) -> Option<()> {
    let element = e.choose(&scalar_types(e))?;
    let r = e.int_in(1, 4) as u32;
    let mut dims = random_dims(e, r);
    let k = e.int_in(0, i64::from(r) - 1) as usize;
    *dims.get_mut(k)? = 0;
    if e.flip() {
        // Sometimes a second zero.
        let k2 = e.int_in(0, i64::from(r) - 1) as usize;
        *dims.get_mut(k2)? = 0;
    }
    let rank = e.const_u32(r);
    let shape = shape_const(e, &dims);
    let result = e.fresh_id();
    e.add_global(Inst::TypeTensor { result, element, rank: Some(rank), shape: Some(shape) });
    e.note(format!("new unused OpTypeTensorARM %{} of shape {dims:?}", result.0));
    Some(())
}

// ---- graph types --------------------------------------------------------------------

/// A new graph type whose NumInputs leaves no output type.
fn graph_no_output(e: &mut Edit) -> Option<()> {
    let tensors: Vec<Id> = shaped_tensor_types(e).into_iter().map(|(t, _)| t).collect();
    let graphs: Vec<Vec<Id>> = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::TypeGraph { io, .. } => Some(io.clone()),
            _ => None,
        })
        .collect();
    let io = if !graphs.is_empty() && e.flip() {
        // The InOut types of an existing graph type, all counted as inputs.
        pick(e, &graphs)?
    } else {
        let n = e.int_in(0, 3);
        let mut io = Vec::new();
        for _ in 0..n {
            io.push(e.choose(&tensors)?);
        }
        io
    };
    let extra = if e.flip() { e.int_in(1, 3) as u32 } else { 0 };
    let num_inputs = io.len() as u32 + extra;
    let result = e.fresh_id();
    e.add_global(Inst::TypeGraph { result, num_inputs, io: io.clone() });
    e.note(format!("new unused OpTypeGraphARM %{} with NumInputs {num_inputs} and {} InOut types", result.0, io.len()));
    Some(())
}

/// A copy of a graph type with one InOut type replaced by a non-interface type.
fn graph_non_tensor_io(e: &mut Edit) -> Option<()> {
    let graphs: Vec<(u32, Vec<Id>)> = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::TypeGraph { num_inputs, io, .. } if !io.is_empty() => Some((*num_inputs, io.clone())),
            _ => None,
        })
        .collect();
    let (num_inputs, mut io) = pick(e, &graphs)?;
    let non_interface: Vec<Id> = {
        let m = &e.module;
        let is_tensor = |id: Id| m.insts.iter().any(|d| matches!(d, Inst::TypeTensor { result, .. } if *result == id));
        m.insts
            .iter()
            .filter_map(|i| match i {
                Inst::TypeVoid { result }
                | Inst::TypeBool { result }
                | Inst::TypeInt { result, .. }
                | Inst::TypeFloat { result, .. }
                | Inst::TypePointer { result, .. }
                | Inst::TypeGraph { result, .. }
                | Inst::TypeStruct { result, .. } => Some(*result),
                Inst::TypeArray { result, element, .. } if !is_tensor(*element) => Some(*result),
                _ => None,
            })
            .collect()
    };
    let bad = e.choose(&non_interface)?;
    let k = e.int_in(0, io.len() as i64 - 1) as usize;
    *io.get_mut(k)? = bad;
    let what = e.def(bad).map(|d| spvgraph_ir::opname::opcode_name(d.opcode())).unwrap_or_default();
    let result = e.fresh_id();
    e.add_global(Inst::TypeGraph { result, num_inputs, io });
    e.note(format!("new unused OpTypeGraphARM %{} with InOut type {k} = %{} ({what})", result.0, bad.0));
    Some(())
}

// ---- uniqueness ---------------------------------------------------------------------

/// A second declaration of a void, bool, integer, float, tensor or graph type.
fn redeclare_type(e: &mut Edit) -> Option<()> {
    let candidates = e.indices(|i| {
        matches!(
            i,
            Inst::TypeVoid { .. }
                | Inst::TypeBool { .. }
                | Inst::TypeInt { .. }
                | Inst::TypeFloat { .. }
                | Inst::TypeTensor { .. }
                | Inst::TypeGraph { .. }
        )
    });
    let at = e.choose(&candidates)?;
    let mut copy = e.module.insts.get(at)?.clone();
    let fresh = e.fresh_id();
    let original = copy.result_id()?;
    match &mut copy {
        Inst::TypeVoid { result }
        | Inst::TypeBool { result }
        | Inst::TypeInt { result, .. }
        | Inst::TypeFloat { result, .. }
        | Inst::TypeTensor { result, .. }
        | Inst::TypeGraph { result, .. } => *result = fresh,
        _ => return None,
    }
    let name = spvgraph_ir::opname::opcode_name(copy.opcode());
    if e.flip() {
        e.insert(at + 1, copy);
        e.note(format!("{name} %{} redeclared as %{} right after it", original.0, fresh.0));
    } else {
        e.add_global(copy);
        e.note(format!("{name} %{} redeclared as %{} after the globals", original.0, fresh.0));
    }
    Some(())
}

// ---- variables ----------------------------------------------------------------------

/// The pointer type `storage` → `pointee`, declared if missing (pointer
/// types may repeat, but reusing keeps the module tidy).
fn pointer_type(e: &mut Edit, storage: u32, pointee: Id) -> Id {
    let found = e.module.insts.iter().find_map(|i| match i {
        Inst::TypePointer { result, storage: s, pointee: p } if *s == storage && *p == pointee => Some(*result),
        _ => None,
    });
    found.unwrap_or_else(|| {
        let result = e.fresh_id();
        e.add_global(Inst::TypePointer { result, storage, pointee });
        result
    })
}

/// A new Private variable of a UniformConstant pointer type. (The converse,
/// a UniformConstant variable of a Private pointer, is ambiguous: whether
/// its DescriptorSet/Binding decorations are required or forbidden depends
/// on which of the two storage classes a validator reads.)
fn variable_storage_mismatch(e: &mut Edit) -> Option<()> {
    let pointees: Vec<Id> = e
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::TypePointer { pointee, .. } => Some(*pointee),
            _ => None,
        })
        .collect();
    let pointee = e.choose(&pointees)?;
    let ptr = pointer_type(e, UNIFORM_CONSTANT, pointee);
    let result = e.fresh_id();
    e.add_global(Inst::Variable { ty: ptr, result, storage: PRIVATE, initializer: None });
    e.note(format!("new Private OpVariable %{} of the UniformConstant pointer type %{}", result.0, ptr.0));
    Some(())
}

/// A new variable whose Result Type is a tensor type, not a pointer.
fn variable_non_pointer(e: &mut Edit) -> Option<()> {
    let tensors: Vec<Id> = shaped_tensor_types(e).into_iter().map(|(t, _)| t).collect();
    let ty = e.choose(&tensors)?;
    let result = e.fresh_id();
    let storage = if e.flip() { PRIVATE } else { UNIFORM_CONSTANT };
    e.add_global(Inst::Variable { ty, result, storage, initializer: None });
    e.note(format!(
        "new OpVariable %{} (storage class {storage}) whose Result Type is the tensor type %{}",
        result.0, ty.0
    ));
    Some(())
}

//! Finding or adding declarations in an existing module: each type or
//! constant is reused when the module already declares it (a duplicate
//! non-aggregate type is invalid), otherwise appended at the end of the
//! declaration section with a fresh id.

use crate::analysis::Analysis;
use crate::elem::{ElemType, ScalarKind};
use crate::inst::{Id, Inst};
use crate::Module;
use spirv::{Capability, Decoration, Op, StorageClass};

/// Index where new declarations go: before the first function, graph entry
/// point or graph definition (or at the end).
pub fn declaration_end(insts: &[Inst]) -> usize {
    insts
        .iter()
        .position(|i| {
            matches!(i, Inst::GraphEntryPoint { .. } | Inst::Graph { .. })
                || matches!(i, Inst::Raw { opcode, .. } if *opcode == Op::Function as u16)
        })
        .unwrap_or(insts.len())
}

/// Adds `inst` at the end of the declaration section.
pub fn push_declaration(m: &mut Module, inst: Inst) {
    let at = declaration_end(&m.insts);
    m.insts.insert(at, inst);
}

/// A fresh id (the bound grows).
pub fn fresh_id(m: &mut Module) -> Id {
    let id = Id(m.header.bound.max(1));
    m.header.bound = id.0 + 1;
    id
}

fn find(m: &Module, pred: impl Fn(&Inst) -> bool) -> Option<Id> {
    m.insts.iter().find(|i| pred(i)).and_then(Inst::result_id)
}

/// The scalar type `kind`, declared if needed.
pub fn scalar_type(m: &mut Module, kind: ScalarKind) -> Id {
    let found = find(m, |i| match (i, kind) {
        (Inst::TypeBool { .. }, ScalarKind::Bool) => true,
        (Inst::TypeInt { width, signedness, .. }, ScalarKind::Int { width: w, signed }) => {
            *width == w && (*signedness != 0) == signed
        }
        (Inst::TypeFloat { width, encoding, .. }, ScalarKind::Float { width: w, encoding: e }) => {
            *width == w && *encoding == e
        }
        _ => false,
    });
    if let Some(id) = found {
        return id;
    }
    let result = fresh_id(m);
    let inst = match kind {
        ScalarKind::Bool => Inst::TypeBool { result },
        ScalarKind::Int { width, signed } => Inst::TypeInt { result, width, signedness: u32::from(signed) },
        ScalarKind::Float { width, encoding } => Inst::TypeFloat { result, width, encoding },
    };
    push_declaration(m, inst);
    result
}

/// `OpTypeInt 32 0`.
pub fn u32_type(m: &mut Module) -> Id {
    scalar_type(m, ScalarKind::Int { width: 32, signed: false })
}

/// An `OpConstant` of `ty` with these value words.
pub fn constant(m: &mut Module, ty: Id, value: &[u32]) -> Id {
    if let Some(id) =
        find(m, |i| matches!(i, Inst::Constant { ty: t, value: v, spec: false, .. } if *t == ty && v == value))
    {
        return id;
    }
    let result = fresh_id(m);
    push_declaration(m, Inst::Constant { ty, result, value: value.to_vec(), spec: false });
    result
}

/// An `OpConstant` of `OpTypeInt 32 0`.
pub fn const_u32(m: &mut Module, v: u32) -> Id {
    let ty = u32_type(m);
    constant(m, ty, &[v])
}

/// `OpConstantTrue`/`OpConstantFalse` of `OpTypeBool`.
pub fn const_bool(m: &mut Module, v: bool) -> Id {
    let ty = scalar_type(m, ScalarKind::Bool);
    let found = find(m, |i| match i {
        Inst::ConstantTrue { ty: t, spec: false, .. } => v && *t == ty,
        Inst::ConstantFalse { ty: t, spec: false, .. } => !v && *t == ty,
        _ => false,
    });
    if let Some(id) = found {
        return id;
    }
    let result = fresh_id(m);
    push_declaration(
        m,
        if v {
            Inst::ConstantTrue { ty, result, spec: false }
        } else {
            Inst::ConstantFalse { ty, result, spec: false }
        },
    );
    result
}

/// `OpTypeArray element len`.
pub fn array_type(m: &mut Module, element: Id, len: u32) -> Id {
    let length = const_u32(m, len);
    if let Some(id) =
        find(m, |i| matches!(i, Inst::TypeArray { element: e, length: l, .. } if *e == element && *l == length))
    {
        return id;
    }
    let result = fresh_id(m);
    push_declaration(m, Inst::TypeArray { result, element, length });
    result
}

/// `OpConstantComposite ty parts`.
pub fn composite(m: &mut Module, ty: Id, parts: &[Id]) -> Id {
    if let Some(id) = find(
        m,
        |i| matches!(i, Inst::ConstantComposite { ty: t, constituents, spec: false, .. } if *t == ty && constituents == parts),
    ) {
        return id;
    }
    let result = fresh_id(m);
    push_declaration(m, Inst::ConstantComposite { ty, result, constituents: parts.to_vec(), spec: false });
    result
}

/// `OpConstantNull ty`.
pub fn null(m: &mut Module, ty: Id) -> Id {
    if let Some(id) = find(m, |i| matches!(i, Inst::ConstantNull { ty: t, .. } if *t == ty)) {
        return id;
    }
    let result = fresh_id(m);
    push_declaration(m, Inst::ConstantNull { ty, result });
    result
}

/// `OpConstantCompositeReplicateEXT ty scalar`, with its capability and extension.
pub fn replicate(m: &mut Module, ty: Id, scalar: Id) -> Id {
    capability(m, Capability::ReplicatedCompositesEXT);
    extension(m, "SPV_EXT_replicated_composites");
    if let Some(id) = find(
        m,
        |i| matches!(i, Inst::ConstantCompositeReplicate { ty: t, constituent, spec: false, .. } if *t == ty && *constituent == scalar),
    ) {
        return id;
    }
    let result = fresh_id(m);
    push_declaration(m, Inst::ConstantCompositeReplicate { ty, result, constituent: scalar, spec: false });
    result
}

/// A shaped tensor type with element type id `element`.
pub fn tensor_type(m: &mut Module, element: Id, shape: &[u32]) -> Id {
    let rank = const_u32(m, shape.len() as u32);
    let u32t = u32_type(m);
    let arr = array_type(m, u32t, shape.len() as u32);
    let parts: Vec<Id> = shape.iter().map(|&d| const_u32(m, d)).collect();
    let shape_c = composite(m, arr, &parts);
    if let Some(id) = find(
        m,
        |i| matches!(i, Inst::TypeTensor { element: e, rank: Some(r), shape: Some(s), .. } if *e == element && *r == rank && *s == shape_c),
    ) {
        return id;
    }
    let result = fresh_id(m);
    push_declaration(m, Inst::TypeTensor { result, element, rank: Some(rank), shape: Some(shape_c) });
    result
}

/// The same tensor type as `ty` with another shape (`None` unless `ty` is a
/// tensor type).
pub fn reshaped_tensor_type(m: &mut Module, ty: Id, shape: &[u32]) -> Option<Id> {
    let element = m.insts.iter().find_map(|i| match i {
        Inst::TypeTensor { result, element, .. } if *result == ty => Some(*element),
        _ => None,
    })?;
    Some(tensor_type(m, element, shape))
}

/// A rank-1 tensor constant of i32 values (stored as `OpTypeInt 32 0`
/// words, as attribute arrays are), written `OpConstantComposite`.
pub fn i32_vector(m: &mut Module, values: &[i64]) -> Id {
    let u32t = u32_type(m);
    let ty = tensor_type(m, u32t, &[values.len().max(1) as u32]);
    let parts: Vec<Id> = values.iter().map(|&v| constant(m, u32t, &[v as i32 as u32])).collect();
    composite(m, ty, &parts)
}

/// A tensor constant of type `ty` (shaped `shape`, element type `elem`)
/// from row-major raw element bits, as nested `OpConstantComposite`s.
pub fn tensor_constant(m: &mut Module, ty: Id, elem: ElemType, shape: &[u32], bits: &[u64]) -> Option<Id> {
    let count = crate::count::checked_len_u32(shape)?;
    if shape.is_empty() || count != bits.len() {
        return None;
    }
    let element = m.insts.iter().find_map(|i| match i {
        Inst::TypeTensor { result, element, .. } if *result == ty => Some(*element),
        _ => None,
    })?;
    Some(tensor_constant_rec(m, ty, element, elem, shape, bits))
}

fn tensor_constant_rec(m: &mut Module, ty: Id, element: Id, elem: ElemType, shape: &[u32], bits: &[u64]) -> Id {
    let parts: Vec<Id> = if shape.len() == 1 {
        bits.iter().map(|&b| scalar_constant(m, element, elem, b)).collect()
    } else {
        let sub = tensor_type(m, element, &shape[1..]);
        let stride = bits.len() / shape[0].max(1) as usize;
        bits.chunks(stride.max(1)).map(|c| tensor_constant_rec(m, sub, element, elem, &shape[1..], c)).collect()
    };
    composite(m, ty, &parts)
}

/// A scalar constant of scalar type `ty` (element type `elem`) from raw bits.
pub fn scalar_constant(m: &mut Module, ty: Id, elem: ElemType, bits: u64) -> Id {
    if elem == ElemType::Bool {
        return const_bool(m, bits != 0);
    }
    let width = elem.storage_bits();
    let masked = if width >= 64 { bits } else { bits & ((1u64 << width) - 1) };
    let value = if width > 32 { vec![masked as u32, (masked >> 32) as u32] } else { vec![masked as u32] };
    constant(m, ty, &value)
}

/// `OpTypePointer storage pointee`.
pub fn pointer_type(m: &mut Module, storage: StorageClass, pointee: Id) -> Id {
    let s = storage as u32;
    if let Some(id) =
        find(m, |i| matches!(i, Inst::TypePointer { storage: st, pointee: p, .. } if *st == s && *p == pointee))
    {
        return id;
    }
    let result = fresh_id(m);
    push_declaration(m, Inst::TypePointer { result, storage: s, pointee });
    result
}

/// `OpTypeGraphARM` with these inputs then outputs.
pub fn graph_type(m: &mut Module, inputs: &[Id], outputs: &[Id]) -> Id {
    let mut io = inputs.to_vec();
    io.extend_from_slice(outputs);
    let n = inputs.len() as u32;
    if let Some(id) =
        find(m, |i| matches!(i, Inst::TypeGraph { num_inputs, io: x, .. } if *num_inputs == n && *x == io))
    {
        return id;
    }
    let result = fresh_id(m);
    push_declaration(m, Inst::TypeGraph { result, num_inputs: n, io });
    result
}

/// Declares a capability unless present.
pub fn capability(m: &mut Module, c: Capability) {
    let c = c as u32;
    if m.insts.iter().any(|i| matches!(i, Inst::Capability(x) if *x == c)) {
        return;
    }
    let at = m.insts.iter().rposition(|i| matches!(i, Inst::Capability(_))).map_or(0, |p| p + 1);
    m.insts.insert(at, Inst::Capability(c));
}

/// Declares an extension unless present.
pub fn extension(m: &mut Module, name: &str) {
    if m.insts.iter().any(|i| matches!(i, Inst::Extension(x) if x == name)) {
        return;
    }
    let at = m.insts.iter().rposition(|i| matches!(i, Inst::Extension(_) | Inst::Capability(_))).map_or(0, |p| p + 1);
    m.insts.insert(at, Inst::Extension(name.to_string()));
}

/// Adds `OpDecorate` after the module's last decoration (or before its
/// first type, constant or variable).
pub fn decorate(m: &mut Module, target: Id, decoration: Decoration, literals: &[u32]) {
    let at = match m.insts.iter().rposition(|i| matches!(i, Inst::Decorate { .. })) {
        Some(p) => p + 1,
        None => m
            .insts
            .iter()
            .position(|i| i.is_type() || i.is_constant() || matches!(i, Inst::Variable { .. }))
            .unwrap_or_else(|| declaration_end(&m.insts)),
    };
    m.insts.insert(at, Inst::Decorate { target, decoration: decoration as u32, literals: literals.to_vec() });
}

/// A new `UniformConstant` interface variable of type `ty`, decorated with
/// DescriptorSet 0 and a binding no other variable in set 0 uses.
pub fn interface_variable(m: &mut Module, ty: Id) -> Id {
    let binding = {
        let a = Analysis::new(m);
        m.insts
            .iter()
            .filter_map(|i| match i {
                Inst::Variable { result, .. } => {
                    a.decoration(*result, Decoration::Binding).and_then(|l| l.first()).copied()
                }
                _ => None,
            })
            .max()
            .map_or(0, |b| b + 1)
    };
    let ptr = pointer_type(m, StorageClass::UniformConstant, ty);
    let result = fresh_id(m);
    push_declaration(
        m,
        Inst::Variable { ty: ptr, result, storage: StorageClass::UniformConstant as u32, initializer: None },
    );
    decorate(m, result, Decoration::DescriptorSet, &[0]);
    decorate(m, result, Decoration::Binding, &[binding]);
    result
}

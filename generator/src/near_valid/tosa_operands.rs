//! Mutators for the TOSA instruction-set and type-table rules: unknown
//! opcodes, operand counts, forms and constness, enum values, result types,
//! and element types against the operator's type slots and rows
//! (`tosa.unknown-instruction`, `tosa.operand*`, `tosa.enum.*`,
//! `tosa.result-type`, `tosa.type.*`).
//!
//! All but `tosa.type.profile` break a *dead copy* of an instruction
//! ([`Edit::dead_copy`]): its result is unused, so no consumer inherits the
//! break. Element types substituted for a type rule are always ones the
//! module already declares (a new width would need a capability), and the
//! tensors carrying them are `OpConstantNull` of the original shape, so
//! shapes, zero points and bounds (all zero) stay valid.

use super::{no_bias, Edit, Mutator};
use crate::Config;
use spvgraph_ir::analysis::Type;
use spvgraph_ir::elem::{ElemType, Profile, ScalarKind};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::{
    catalogue, AccType, ElemRef, EnumKind, Form, Len, ResizeMode, ResultKind, RoundingMode, RowQualifier, TosaOp,
    TypeRow,
};

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![
        Mutator { rule: RuleId::TosaUnknownInstruction, name: "unknown-opcode", bias: no_bias, apply: unknown_opcode },
        Mutator { rule: RuleId::TosaOperandCount, name: "extra-operands", bias: no_bias, apply: extra_operands },
        Mutator { rule: RuleId::TosaOperandCount, name: "missing-operands", bias: no_bias, apply: missing_operands },
        // A separate mutator: spirv-val 2025.5 accepts it (the grammar gives
        // CONCAT's input1 the quantifier `*`, zero or more).
        Mutator {
            rule: RuleId::TosaOperandCount,
            name: "concat-without-inputs",
            bias: concat_only,
            apply: concat_without_inputs,
        },
        Mutator {
            rule: RuleId::TosaOperandNotConstant,
            name: "reversed-constant",
            bias: constant_operand_ops,
            apply: not_constant,
        },
        Mutator { rule: RuleId::TosaOperandForm, name: "wrong-form-constant", bias: no_bias, apply: operand_form },
        Mutator { rule: RuleId::TosaEnumValue, name: "invalid-enumerant", bias: enum_ops, apply: enum_value },
        Mutator {
            rule: RuleId::TosaEnumExtension,
            name: "rounding-mode-without-extension",
            bias: rescale_only,
            apply: enum_extension,
        },
        Mutator { rule: RuleId::TosaResultType, name: "non-tensor-result-type", bias: no_bias, apply: result_type },
        Mutator { rule: RuleId::TosaTypeFixed, name: "fixed-type-operand", bias: fixed_type_ops, apply: type_fixed },
        Mutator { rule: RuleId::TosaTypeSlotConflict, name: "retype-one-place", bias: no_bias, apply: slot_conflict },
        Mutator { rule: RuleId::TosaTypeNoRow, name: "retype-whole-slot", bias: no_bias, apply: no_row },
        Mutator {
            rule: RuleId::TosaTypeRowQualifier,
            name: "other-qualifier",
            bias: qualifier_ops,
            apply: row_qualifier,
        },
        Mutator { rule: RuleId::TosaTypeProfile, name: "drop-row-profile", bias: no_bias, apply: type_profile },
    ]
}

// ---- biases -------------------------------------------------------------------------------

fn ops_where(keep: impl Fn(TosaOp) -> bool) -> Vec<TosaOp> {
    catalogue().iter().map(|s| s.op).filter(|&op| keep(op)).collect()
}

/// Operators with an attribute array or compile-time-constant tensor input.
fn constant_operand_ops(c: &mut Config) {
    c.allow_ops = ops_where(|op| {
        op.spec()
            .operands
            .iter()
            .any(|o| o.role.must_be_constant() && matches!(o.form, Form::I32Array { .. } | Form::ConstTensor { .. }))
    });
}

/// Operators with an enum attribute.
fn enum_ops(c: &mut Config) {
    c.allow_ops = ops_where(|op| op.spec().operands.iter().any(|o| matches!(o.form, Form::EnumConst(_))));
}

fn rescale_only(c: &mut Config) {
    c.allow_ops = vec![TosaOp::Rescale];
}

/// Operators with a tensor operand of a fixed element type (GATHER/SCATTER
/// indices, SELECT's condition, MUL and RESCALE shifts).
fn fixed_type_ops(c: &mut Config) {
    c.allow_ops = ops_where(|op| {
        op.spec().operands.iter().any(|o| {
            matches!(
                o.form,
                Form::Tensor { elem: ElemRef::Fixed(_), .. } | Form::ConstTensor { elem: ElemRef::Fixed(_), .. }
            )
        })
    });
}

/// Operators whose type rows are tied to an attribute (acc_type, RESIZE mode, RESCALE scale32).
fn qualifier_ops(c: &mut Config) {
    c.allow_ops = ops_where(|op| op.spec().qualifier_operand().is_some());
}

// ---- looking ------------------------------------------------------------------------------

/// A TOSA instruction with the element types of its operands and results.
struct Info {
    result: Id,
    op: TosaOp,
    ty: Id,
    args: Vec<Id>,
    /// Element type (scalar type for scalars) of each operand.
    opnds: Vec<Option<ElemType>>,
    /// Element type of each result tensor.
    res: Vec<Option<ElemType>>,
}

impl Info {
    /// Slot types, when every slot is known and consistent.
    fn slots(&self) -> Option<Vec<ElemType>> {
        self.op.spec().slot_types(&self.opnds, &self.res).ok()?.into_iter().collect()
    }
}

fn elem_of(e: &Edit, id: Id) -> Option<ElemType> {
    let a = e.analysis();
    match a.ty(a.type_of(id)?)? {
        Type::Tensor(t) => t.elem,
        Type::Scalar(k) => ElemType::from_spirv(k),
        _ => None,
    }
}

fn info(e: &Edit, at: usize) -> Option<Info> {
    let Some(Inst::Tosa { ty, result, op, args, .. }) = e.module.insts.get(at) else { return None };
    let (ty, result, op, args) = (*ty, *result, *op, args.clone());
    let opnds = args.iter().map(|&a| elem_of(e, a)).collect();
    let a = e.analysis();
    let res = match op.spec().result.kind {
        ResultKind::Tensor => vec![a.tensor_type(ty)?.elem],
        ResultKind::RealImagStruct => match a.ty(ty)? {
            Type::Struct(members) => members.iter().map(|m| a.tensor_type(*m).and_then(|t| t.elem)).collect(),
            _ => return None,
        },
    };
    Some(Info { result, op, ty, args, opnds, res })
}

/// The value of a scalar constant (bools as 0/1).
fn const_value(e: &Edit, id: Id) -> Option<u64> {
    match e.def(id)? {
        Inst::ConstantTrue { spec: false, .. } => Some(1),
        Inst::ConstantFalse { spec: false, .. } => Some(0),
        Inst::ConstantNull { .. } => Some(0),
        _ => e.analysis().const_uint(id),
    }
}

/// The row qualifier a value `v` of the qualifier operand `name` stands for.
fn qualifier_for(name: &str, v: u64) -> Option<RowQualifier> {
    let v32 = u32::try_from(v).ok()?;
    match name {
        "acc_type" => AccType::from_u32(v32).map(RowQualifier::AccType),
        "mode" => ResizeMode::from_u32(v32).map(RowQualifier::Mode),
        "scale32" => Some(RowQualifier::Scale32(v != 0)),
        _ => None,
    }
}

/// The type row an instruction uses (as the validator selects it).
fn row_of(e: &Edit, i: &Info) -> Option<&'static TypeRow> {
    let spec = i.op.spec();
    let types = i.slots()?;
    let q = match spec.qualifier_operand() {
        None => RowQualifier::Any,
        Some(q) => qualifier_for(spec.operand(q)?.name, const_value(e, *i.args.get(q)?)?)?,
    };
    spec.find_row(&types, q)
}

/// The TOSA element types the module declares a scalar type for, with that
/// type's id (the first declaration of each).
fn declared_elems(e: &Edit) -> Vec<(ElemType, Id)> {
    let a = e.analysis();
    let mut out: Vec<(ElemType, Id)> = Vec::new();
    for inst in &e.module.insts {
        if !matches!(inst, Inst::TypeBool { .. } | Inst::TypeInt { .. } | Inst::TypeFloat { .. }) {
            continue;
        }
        let Some(id) = inst.result_id() else { continue };
        let Some(elem) = a.scalar_kind(id).and_then(ElemType::from_spirv) else { continue };
        if !out.iter().any(|(t, _)| *t == elem) {
            out.push((elem, id));
        }
    }
    out
}

/// A null tensor with the shape of `like` (a value or tensor type) and element type `elem`.
fn null_tensor_like(e: &mut Edit, like: Id, elem: Id) -> Option<Id> {
    let shape = e.shape_of(like)?;
    let ty = e.tensor_type(elem, &shape);
    Some(e.null_const(ty))
}

fn all_tosa(e: &Edit) -> Vec<usize> {
    e.tosa_where(|_, _| true)
}

// ---- tosa.unknown-instruction --------------------------------------------------------------

fn unknown_opcode(e: &mut Edit) -> Option<()> {
    let at = e.choose(&all_tosa(e))?;
    let copy = e.dead_copy(at)?;
    let number = e.choose(&[66u32, 67, 68, 70, 80, 99, 100, 128, 255, 256, 1000, 0xffff, 0x1_0000, u32::MAX])?;
    let slot = e.module.insts.get_mut(copy)?;
    let Inst::Tosa { ty, result, set, op, args } = slot.clone() else { return None };
    *slot = Inst::ExtInst { ty, result, set, number, operands: args.iter().map(|a| a.0).collect() };
    e.note(format!("{}: dead copy with instruction number {number}", op.name()));
    Some(())
}

// ---- tosa.operand-count ------------------------------------------------------------------

/// A dead copy with one to three operands appended (copies of one of its operands).
fn extra_operands(e: &mut Edit) -> Option<()> {
    let at = e.choose(&all_tosa(e))?;
    let i = info(e, at)?;
    // CONCAT's tail is variadic: more operands are more inputs, not a wrong count.
    if i.op.spec().variadic {
        return None;
    }
    let extra = e.choose(&i.args)?;
    let grow = e.int_in(1, 3) as usize;
    e.copy_with(i.result, |_, args| args.extend(std::iter::repeat_n(extra, grow)))?;
    e.note(format!("{}: dead copy with {grow} extra operand(s) (%{})", i.op.name(), extra.0));
    Some(())
}

/// A dead copy with a run of one or more operands removed (for CONCAT, where
/// fewer inputs is still a valid count, every operand).
fn missing_operands(e: &mut Edit) -> Option<()> {
    let at = e.choose(&all_tosa(e))?;
    let i = info(e, at)?;
    if i.args.is_empty() {
        return None;
    }
    let n = if i.op.spec().variadic { i.args.len() } else { e.int_in(1, i.args.len() as i64) as usize };
    let first = e.int_in(0, (i.args.len() - n) as i64) as usize;
    e.copy_with(i.result, |_, args| {
        args.drain(first..first + n);
    })?;
    e.note(format!("{}: dead copy without operands {first}..{}", i.op.name(), first + n));
    Some(())
}

fn concat_only(c: &mut Config) {
    c.allow_ops = vec![TosaOp::Concat];
}

/// A dead CONCAT copy with its axis only.
fn concat_without_inputs(e: &mut Edit) -> Option<()> {
    let concats = e.tosa_where(|op, _| op == TosaOp::Concat);
    let at = e.choose(&concats)?;
    let i = info(e, at)?;
    e.copy_with(i.result, |_, args| args.truncate(1))?;
    e.note("CONCAT: dead copy with its axis and no input");
    Some(())
}

// ---- tosa.operand.not-constant ---------------------------------------------------------------

/// A dead copy whose attribute array or compile-time-constant input is a
/// REVERSE (on axis 0) of the original constant: the same type and shape,
/// but not a constant instruction. REVERSE accepts every element type but
/// i48 (checked against its rows).
fn not_constant(e: &mut Edit) -> Option<()> {
    let mut candidates = Vec::new();
    for at in all_tosa(e) {
        let Some(i) = info(e, at) else { continue };
        for (k, o) in i.op.spec().operands.iter().enumerate() {
            let Some(&arg) = i.args.get(k) else { continue };
            let tensor_form = matches!(o.form, Form::I32Array { .. } | Form::ConstTensor { .. });
            let reversible = elem_of(e, arg)
                .is_some_and(|t| TosaOp::Reverse.spec().find_row(&[t], RowQualifier::Any).is_some())
                && e.shape_of(arg).is_some_and(|s| !s.is_empty());
            if o.role.must_be_constant() && tensor_form && reversible {
                candidates.push((i.result, k, arg));
            }
        }
    }
    let (orig, k, arg) = e.choose(&candidates)?;
    let op = match e.def(orig)? {
        Inst::Tosa { op, .. } => *op,
        _ => return None,
    };
    let axis = e.const_u32(0);
    let arg_ty = e.analysis().type_of(arg)?;
    let set = match e.def(orig)? {
        Inst::Tosa { set, .. } => *set,
        _ => return None,
    };
    let reversed = e.fresh_id();
    let (copy, ()) = e.copy_with(orig, |_, args| {
        if let Some(a) = args.get_mut(k) {
            *a = reversed;
        }
    })?;
    // The REVERSE goes right before the copy (after the original, which
    // keeps reading the constant).
    e.insert(copy, Inst::Tosa { ty: arg_ty, result: reversed, set, op: TosaOp::Reverse, args: vec![axis, arg] });
    let name = op.spec().operand(k).map_or("?", |o| o.name);
    e.note(format!("{}: dead copy whose {name} is REVERSE(%{}), not a constant", op.name(), arg.0));
    Some(())
}

// ---- tosa.operand.form ------------------------------------------------------------------------

/// The (non-spec) constants whose type satisfies `keep` (on the resolved type).
fn constants_typed(e: &Edit, keep: impl Fn(&Type) -> bool) -> Vec<Id> {
    let a = e.analysis();
    e.results_where(|i| {
        i.is_constant()
            && !matches!(
                i,
                Inst::Raw { .. }
                    | Inst::Constant { spec: true, .. }
                    | Inst::ConstantTrue { spec: true, .. }
                    | Inst::ConstantFalse { spec: true, .. }
                    | Inst::ConstantComposite { spec: true, .. }
                    | Inst::ConstantCompositeReplicate { spec: true, .. }
            )
            && i.result_type().and_then(|t| a.ty(t)).is_some_and(|t| keep(&t))
    })
}

/// A dead copy with one operand replaced by a constant of the wrong kind for
/// its form: a tensor or non-i32 scalar for an enum/axis, a non-bool for a
/// bool attribute, a non-scalar for a CLAMP bound, a scalar or array for a
/// tensor operand. (Every replacement is a constant, so constness holds.)
fn operand_form(e: &mut Edit) -> Option<()> {
    let mut candidates = Vec::new();
    for at in all_tosa(e) {
        let Some(i) = info(e, at) else { continue };
        for k in 0..i.args.len() {
            candidates.push((i.result, i.op, k));
        }
    }
    let (orig, op, k) = e.choose(&candidates)?;
    let form = op.spec().operand(k)?.form;
    let is_tensor = |t: &Type| matches!(t, Type::Tensor(_));
    let mut pool = match form {
        Form::EnumConst(_) | Form::AxisConst { .. } => constants_typed(e, |t| {
            is_tensor(t) || matches!(t, Type::Scalar(k) if !matches!(k, ScalarKind::Int { width: 32, .. }))
        }),
        Form::BoolConst => {
            constants_typed(e, |t| is_tensor(t) || matches!(t, Type::Scalar(k) if *k != ScalarKind::Bool))
        }
        Form::ScalarConst { .. } => constants_typed(e, |t| !matches!(t, Type::Scalar(_))),
        Form::I32Array { .. } | Form::ConstTensor { .. } | Form::Tensor { .. } => {
            constants_typed(e, |t| matches!(t, Type::Scalar(_) | Type::Array { .. }))
        }
    };
    if pool.is_empty() {
        // Only forms expecting a tensor can lack candidates among existing
        // constants; an unsigned 32-bit scalar is wrong for them.
        if !form.is_tensor() {
            return None;
        }
        let v = e.int_in(0, 4) as u32;
        pool.push(e.const_u32(v));
    }
    let by = e.choose(&pool)?;
    e.copy_with(orig, |_, args| {
        if let Some(a) = args.get_mut(k) {
            *a = by;
        }
    })?;
    let name = op.spec().operand(k).map_or("?", |o| o.name);
    e.note(format!("{}: dead copy whose {name} is %{} (wrong form)", op.name(), by.0));
    Some(())
}

// ---- tosa.enum.value --------------------------------------------------------------------------------

fn enum_value(e: &mut Edit) -> Option<()> {
    let mut candidates = Vec::new();
    for at in all_tosa(e) {
        let Some(i) = info(e, at) else { continue };
        for (k, o) in i.op.spec().operands.iter().enumerate() {
            let Form::EnumConst(kind) = o.form else { continue };
            let Some(&arg) = i.args.get(k) else { continue };
            // The replacement keeps the operand's 32-bit integer type.
            let Some(ty) = e.analysis().type_of(arg) else { continue };
            candidates.push((i.result, i.op, k, kind, ty));
        }
    }
    let (orig, op, k, kind, ty) = e.choose(&candidates)?;
    let max = kind.values().iter().copied().max().unwrap_or(0);
    let bad = e.choose(&[0, max + 1, max + 2, 7, 100, 0x8000_0000, u32::MAX])?;
    let c = e.constant(ty, vec![bad]);
    e.copy_with(orig, |_, args| {
        if let Some(a) = args.get_mut(k) {
            *a = c;
        }
    })?;
    e.note(format!("{}: dead copy with {} = {bad}", op.name(), kind.tosa_name()));
    Some(())
}

// ---- tosa.enum.extension ------------------------------------------------------------------------------

/// A dead RESCALE copy with rounding_mode INEXACT_ROUND (or DOUBLE_ROUND when
/// scale32 is true, as DOUBLE_ROUND requires), and the consumer's profiles
/// lacking the extension it needs. No type row mentions the rounding
/// extensions, so no row becomes unavailable.
fn enum_extension(e: &mut Edit) -> Option<()> {
    let rescales = e.tosa_where(|op, _| op == TosaOp::Rescale);
    let at = e.choose(&rescales)?;
    let i = info(e, at)?;
    let spec = i.op.spec();
    let (rm, _) = spec.operand_named("rounding_mode")?;
    let (s32, _) = spec.operand_named("scale32")?;
    let scale32 = const_value(e, *i.args.get(s32)?)? != 0;
    let mode = if scale32 && e.flip() { RoundingMode::DoubleRound } else { RoundingMode::InexactRound };
    let needs = EnumKind::RoundingMode.required_profile(mode.value())?;
    let ty = e.analysis().type_of(*i.args.get(rm)?)?;
    let c = e.constant(ty, vec![mode.value()]);
    e.copy_with(i.result, |_, args| {
        if let Some(a) = args.get_mut(rm) {
            *a = c;
        }
    })?;
    e.profiles = Some(Profile::ALL.iter().copied().filter(|p| *p != needs).collect());
    e.note(format!("RESCALE: dead copy with rounding_mode {}, {needs} not enabled", mode.name()));
    Some(())
}

// ---- tosa.result-type -----------------------------------------------------------------------------------

/// A dead copy whose Result Type is a scalar, array or struct type (for
/// FFT2D/RFFT2D: a tensor, scalar or array type instead of their struct).
fn result_type(e: &mut Edit) -> Option<()> {
    let at = e.choose(&all_tosa(e))?;
    let i = info(e, at)?;
    let fft = i.op.spec().result.kind == ResultKind::RealImagStruct;
    let a = e.analysis();
    // spirv-val rejects an OpExtInst whose result is (or holds) a bf16 or fp8
    // scalar (SPV_KHR_bfloat16, SPV_EXT_float8 restrict those types to a few
    // instructions), a rule the catalogue does not have: keep away from them.
    let encoded = |id: &Id| matches!(a.def(*id), Some(Inst::TypeFloat { encoding: Some(_), .. }));
    let types = e.results_where(|inst| match inst {
        Inst::TypeBool { .. } | Inst::TypeInt { .. } => true,
        Inst::TypeFloat { encoding, .. } => encoding.is_none(),
        Inst::TypeArray { element, .. } => !encoded(element),
        Inst::TypeTensor { .. } => fft,
        // A struct is the right kind for FFTs only when it holds two tensors.
        Inst::TypeStruct { members, .. } => {
            !members.iter().any(encoded)
                && (!fft || members.len() != 2 || members.iter().any(|m| a.tensor_type(*m).is_none()))
        }
        _ => false,
    });
    drop(a);
    let new_ty = e.choose(&types)?;
    e.copy_with(i.result, |ty, _| *ty = new_ty)?;
    e.note(format!("{}: dead copy with Result Type %{} (was %{})", i.op.name(), new_ty.0, i.ty.0));
    Some(())
}

// ---- tosa.type.fixed ---------------------------------------------------------------------------------------

/// A dead copy where an operand of a fixed element type has another one:
/// a tensor input or constant (GATHER/SCATTER indices, SELECT condition, MUL
/// and RESCALE shift) becomes a null tensor of another declared element
/// type, or an i32 attribute array is rewritten with the same values in a
/// narrower or wider declared integer type (values that fit, non-negative,
/// so shape inference reads the same numbers).
fn type_fixed(e: &mut Edit) -> Option<()> {
    let elems = declared_elems(e);
    let mut candidates = Vec::new();
    for at in all_tosa(e) {
        let Some(i) = info(e, at) else { continue };
        for (k, o) in i.op.spec().operands.iter().enumerate() {
            let Some(&arg) = i.args.get(k) else { continue };
            match o.form {
                Form::Tensor { elem: ElemRef::Fixed(t), .. } | Form::ConstTensor { elem: ElemRef::Fixed(t), .. } => {
                    for &(other, id) in &elems {
                        if other != t {
                            candidates.push((i.result, i.op, k, arg, other, id, false));
                        }
                    }
                }
                Form::I32Array { .. } => {
                    let Some(bits) = e.analysis().const_tensor_bits(arg, 64) else { continue };
                    for &(other, id) in &elems {
                        // Non-negative values below 2^(width-1) read the same in any width.
                        let limit = 1u64 << (other.storage_bits().min(32) - 1);
                        if other.is_int() && other != ElemType::I32 && bits.iter().all(|&b| b < limit) {
                            candidates.push((i.result, i.op, k, arg, other, id, true));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let (orig, op, k, arg, other, elem_id, array) = e.choose(&candidates)?;
    let by = if array {
        let bits = e.analysis().const_tensor_bits(arg, 64)?;
        let width = other.storage_bits();
        let shape = e.shape_of(arg)?;
        let ty = e.tensor_type(elem_id, &shape);
        let parts: Vec<Id> = bits
            .iter()
            .map(|&b| e.constant(elem_id, if width > 32 { vec![b as u32, 0] } else { vec![b as u32] }))
            .collect();
        e.composite(ty, parts)
    } else {
        null_tensor_like(e, arg, elem_id)?
    };
    e.copy_with(orig, |_, args| {
        if let Some(a) = args.get_mut(k) {
            *a = by;
        }
    })?;
    let name = op.spec().operand(k).map_or("?", |o| o.name);
    e.note(format!("{}: dead copy whose {name} has element type {other}", op.name()));
    Some(())
}

// ---- tosa.type.slot-conflict / tosa.type.no-row ---------------------------------------------------------------

/// A place of a type slot: operand `k`, or the (single) result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Operand(usize),
    Result,
}

/// The places of slot `s` in instruction `i` whose element type is known.
fn places(i: &Info, s: u8) -> Vec<Place> {
    let spec = i.op.spec();
    let mut out: Vec<Place> = (0..i.args.len())
        .filter(|&k| {
            spec.operand(k).is_some_and(|o| o.form.elem() == ElemRef::Slot(s))
                && i.opnds.get(k).copied().flatten().is_some()
        })
        .map(Place::Operand)
        .collect();
    if spec.result.slot == s {
        // FFT results (a struct of two tensors) count as places but are not retyped.
        out.extend(i.res.iter().map(|_| Place::Result));
    }
    out
}

/// The replacement for `place` of `i` with element type `elem_id`: a null
/// tensor (or scalar, for CLAMP bounds) for an operand, a tensor type for the
/// result. Declares what it needs.
fn retyped(e: &mut Edit, i: &Info, place: Place, elem_id: Id) -> Option<Id> {
    match place {
        Place::Result => {
            if i.op.spec().result.kind != ResultKind::Tensor {
                return None;
            }
            let shape = e.shape_of(i.ty)?;
            Some(e.tensor_type(elem_id, &shape))
        }
        Place::Operand(k) => {
            let arg = *i.args.get(k)?;
            match i.op.spec().operand(k)?.form {
                Form::ScalarConst { .. } => Some(e.null_const(elem_id)),
                Form::Tensor { .. } | Form::ConstTensor { .. } => null_tensor_like(e, arg, elem_id),
                _ => None,
            }
        }
    }
}

/// Applies replacements (from [`retyped`]) to a dead copy of `i`.
fn apply_places(e: &mut Edit, i: &Info, subs: &[(Place, Id)]) -> Option<()> {
    e.copy_with(i.result, |ty, args| {
        for &(p, by) in subs {
            match p {
                Place::Result => *ty = by,
                Place::Operand(k) => {
                    if let Some(a) = args.get_mut(k) {
                        *a = by;
                    }
                }
            }
        }
    })?;
    Some(())
}

/// A dead copy in which one of two or more places sharing a type slot gets
/// another declared element type.
fn slot_conflict(e: &mut Edit) -> Option<()> {
    let elems = declared_elems(e);
    let mut candidates = Vec::new();
    for at in all_tosa(e) {
        let Some(i) = info(e, at) else { continue };
        let Some(types) = i.slots() else { continue };
        for (s, &cur) in types.iter().enumerate() {
            let ps = places(&i, s as u8);
            if ps.len() < 2 {
                continue;
            }
            for &p in &ps {
                if p == Place::Result && i.op.spec().result.kind != ResultKind::Tensor {
                    continue;
                }
                for &(other, id) in &elems {
                    if other != cur {
                        candidates.push((at, s, p, other, id));
                    }
                }
            }
        }
    }
    let (at, s, p, other, elem_id) = e.choose(&candidates)?;
    let i = info(e, at)?;
    let by = retyped(e, &i, p, elem_id)?;
    apply_places(e, &i, &[(p, by)])?;
    let slot = i.op.spec().slots.get(s).copied().unwrap_or("?");
    let place = match p {
        Place::Result => "the result",
        Place::Operand(k) => i.op.spec().operand(k).map_or("?", |o| o.name),
    };
    e.note(format!("{}: dead copy with {place} (slot {slot}) retyped to {other}", i.op.name()));
    Some(())
}

/// A dead copy in which every place of one type slot gets another declared
/// element type that forms no row with the other slots (whatever the
/// qualifier). TABLE's table size and RESCALE's unsigned flags depend on the
/// slot types, so those combinations are skipped.
fn no_row(e: &mut Edit) -> Option<()> {
    let elems = declared_elems(e);
    let mut candidates = Vec::new();
    for at in all_tosa(e) {
        let Some(i) = info(e, at) else { continue };
        let Some(types) = i.slots() else { continue };
        let spec = i.op.spec();
        if i.op == TosaOp::Rescale {
            let flag =
                |name: &str| spec.operand_named(name).and_then(|(k, _)| i.args.get(k)).and_then(|&a| const_value(e, a));
            if flag("input_unsigned") != Some(0) || flag("output_unsigned") != Some(0) {
                continue;
            }
        }
        for (s, &cur) in types.iter().enumerate() {
            let table = spec.operands.iter().any(
                |o| matches!(o.form, Form::ConstTensor { len: Len::TableSize { slot }, .. } if usize::from(slot) == s),
            );
            let ps = places(&i, s as u8);
            let struct_result = spec.result.kind != ResultKind::Tensor && ps.contains(&Place::Result);
            if table || ps.is_empty() || struct_result {
                continue;
            }
            for &(other, id) in &elems {
                let mut wanted: Vec<Option<ElemType>> = types.iter().map(|t| Some(*t)).collect();
                if let Some(w) = wanted.get_mut(s) {
                    *w = Some(other);
                }
                if other != cur && spec.rows_matching(&wanted).next().is_none() {
                    candidates.push((at, s, other, id));
                }
            }
        }
    }
    let (at, s, other, elem_id) = e.choose(&candidates)?;
    let i = info(e, at)?;
    let mut subs = Vec::new();
    for p in places(&i, s as u8) {
        let by = retyped(e, &i, p, elem_id)?;
        subs.push((p, by));
    }
    apply_places(e, &i, &subs)?;
    let slot = i.op.spec().slots.get(s).copied().unwrap_or("?");
    e.note(format!("{}: dead copy with slot {slot} ({} places) retyped to {other}", i.op.name(), subs.len()));
    Some(())
}

// ---- tosa.type.row-qualifier -------------------------------------------------------------------------------------

/// A dead copy whose acc_type / RESIZE mode / RESCALE scale32 is another
/// valid value for which the instruction's types have no row (while some
/// row with those types exists). RESCALE's scale32 is only made false when
/// rounding_mode is not DOUBLE_ROUND (which needs scale32).
fn row_qualifier(e: &mut Edit) -> Option<()> {
    let mut candidates = Vec::new();
    for at in all_tosa(e) {
        let Some(i) = info(e, at) else { continue };
        let spec = i.op.spec();
        let Some(q) = spec.qualifier_operand() else { continue };
        let Some(name) = spec.operand(q).map(|o| o.name) else { continue };
        let Some(types) = i.slots() else { continue };
        if spec.rows_matching(&types.iter().map(|t| Some(*t)).collect::<Vec<_>>()).next().is_none() {
            continue;
        }
        let Some(cur) = i.args.get(q).and_then(|&a| const_value(e, a)) else { continue };
        let values: &[u64] = match name {
            "acc_type" => &[1, 2, 3, 4],
            "mode" => &[1, 2],
            _ => &[0, 1],
        };
        let double_round =
            spec.operand_named("rounding_mode").and_then(|(k, _)| i.args.get(k)).and_then(|&a| const_value(e, a))
                == Some(u64::from(RoundingMode::DoubleRound.value()));
        for &v in values {
            if v == cur || (name == "scale32" && v == 0 && double_round) {
                continue;
            }
            let Some(qual) = qualifier_for(name, v) else { continue };
            if spec.find_row(&types, qual).is_none() {
                candidates.push((at, q, name, v));
            }
        }
    }
    let (at, q, name, v) = e.choose(&candidates)?;
    let i = info(e, at)?;
    let c = if name == "scale32" {
        e.bool_const(v != 0)
    } else {
        let ty = e.analysis().type_of(*i.args.get(q)?)?;
        e.constant(ty, vec![v as u32])
    };
    e.copy_with(i.result, |_, args| {
        if let Some(a) = args.get_mut(q) {
            *a = c;
        }
    })?;
    e.note(format!("{}: dead copy with {name} = {v}, which the types' rows do not allow", i.op.name()));
    Some(())
}

// ---- tosa.type.profile ----------------------------------------------------------------------------------------------

/// No change to the module: the consumer's profiles lack every profile that
/// enables the row one operator uses (or one of the extensions the row also
/// needs). Other instructions whose rows become unavailable report the same
/// rule; the rounding extensions (for `tosa.enum.extension`) stay enabled.
fn type_profile(e: &mut Edit) -> Option<()> {
    let mut ops: Vec<TosaOp> = Vec::new();
    for at in all_tosa(e) {
        if let Some(Inst::Tosa { op, .. }) = e.module.insts.get(at) {
            if !ops.contains(op) {
                ops.push(*op);
            }
        }
    }
    let op = e.choose(&ops)?;
    let of_op = e.tosa_where(|o, _| o == op);
    let at = e.choose(&of_op)?;
    let i = info(e, at)?;
    let row = row_of(e, &i)?;
    let dropped: Vec<Profile> =
        if !row.also.is_empty() && e.flip() { vec![e.choose(row.also)?] } else { row.profiles.to_vec() };
    if dropped.is_empty() {
        return None;
    }
    let kept: Vec<Profile> = Profile::ALL.iter().copied().filter(|p| !dropped.contains(p)).collect();
    let names: Vec<&str> = dropped.iter().map(|p| p.name()).collect();
    e.profiles = Some(kept);
    e.note(format!("{}: profiles without {} (its row {:?})", op.name(), names.join(", "), row.types));
    Some(())
}

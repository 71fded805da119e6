//! An in-tree sanity check of TOSA rules, reading the module back through
//! `spvgraph_ir::analysis` (independently of how the generator built it):
//! every TOSA instruction's type row must exist (`find_row`), its declared
//! result shapes must be what `infer_shapes` computes (`check_output`),
//! attribute and CTC operands must come from constant instructions, enums
//! must be valid, and the value ERROR_IFs on constants must hold.

use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::elem::{ElemType, Profile};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::scalar::float_bits_to_f64;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{
    check_output, AccType, Form, ResizeMode, RowQualifier, ShapeArg, ShapeInputs, TosaOp, ValueRule,
};
use std::collections::BTreeMap;

/// Problems found, one line each (empty when the module is TOSA-consistent).
pub fn check(
    m: &spvgraph_ir::Module,
    graph_constants: &BTreeMap<u32, TensorData>,
    profiles: &[Profile],
) -> Vec<String> {
    let a = Analysis::new(m);
    let mut problems = Vec::new();
    for inst in &m.insts {
        let Inst::Tosa { ty, result, op, args, .. } = inst else { continue };
        if let Err(e) = check_one(&a, graph_constants, profiles, *op, *ty, args) {
            problems.push(format!("{op} {result}: {e}"));
        }
    }
    problems
}

fn elem_of_type(a: &Analysis, ty: Id) -> Option<ElemType> {
    match a.ty(ty)? {
        Type::Tensor(t) => t.elem,
        Type::Scalar(s) => ElemType::from_spirv(s),
        _ => None,
    }
}

/// Integer values of a constant (inline or graph constant), sign-extended.
fn const_ints(a: &Analysis, gcs: &BTreeMap<u32, TensorData>, id: Id) -> Option<Vec<i64>> {
    if let Some(Inst::GraphConstant { graph_constant_id, .. }) = a.def(id) {
        return gcs.get(graph_constant_id).map(|t| t.to_bits().into_iter().map(|b| b as i64).collect());
    }
    let elem = elem_of_type(a, a.type_of(id)?)?;
    let width = elem.storage_bits();
    let bits = a.const_tensor_bits(id, 1 << 16)?;
    Some(
        bits.into_iter()
            .map(|b| if width >= 64 { b as i64 } else { ((b << (64 - width)) as i64) >> (64 - width) })
            .collect(),
    )
}

/// A bool attribute: "a constant instruction of type OpTypeBool" (the
/// registry's wording), so `OpConstantNull` (false) counts.
fn const_bool(a: &Analysis, id: Id) -> Option<bool> {
    match a.def(id)? {
        Inst::ConstantTrue { .. } => Some(true),
        Inst::ConstantFalse { .. } => Some(false),
        Inst::ConstantNull { ty, .. } if a.scalar_kind(*ty) == Some(spvgraph_ir::elem::ScalarKind::Bool) => Some(false),
        _ => None,
    }
}

fn is_constant(a: &Analysis, id: Id) -> bool {
    a.def(id).is_some_and(|i| i.is_constant() || matches!(i, Inst::GraphConstant { .. }))
}

fn check_one(
    a: &Analysis,
    gcs: &BTreeMap<u32, TensorData>,
    profiles: &[Profile],
    op: TosaOp,
    ty: Id,
    args: &[Id],
) -> Result<(), String> {
    let spec = op.spec();
    if !spec.accepts_operand_count(args.len()) {
        return Err(format!("{} operands", args.len()));
    }
    let mut shape_args = Vec::new();
    let mut elems = Vec::new();
    for (i, &id) in args.iter().enumerate() {
        let o = spec.operand(i).ok_or("operand spec")?;
        if o.role.must_be_constant() && !is_constant(a, id) {
            return Err(format!("{} is not a constant instruction", o.name));
        }
        let t = a.type_of(id).ok_or_else(|| format!("{}: no type", o.name))?;
        elems.push(elem_of_type(a, t));
        let arg = match o.form {
            Form::Tensor { .. } | Form::ConstTensor { .. } => match a.tensor_type(t).and_then(|tt| tt.shape) {
                Some(s) => ShapeArg::Tensor(s.into_iter().map(|d| d as u32).collect()),
                // Unshaped graph inputs (off by default) cannot be checked statically.
                None => return Ok(()),
            },
            Form::I32Array { .. } => {
                ShapeArg::Ints(const_ints(a, gcs, id).ok_or_else(|| format!("{}: values", o.name))?)
            }
            Form::AxisConst { .. } => ShapeArg::Ints(vec![i64::from(a.const_uint(id).ok_or("axis")? as u32 as i32)]),
            Form::BoolConst => {
                ShapeArg::Bool(const_bool(a, id).ok_or_else(|| format!("{} is not a bool constant", o.name))?)
            }
            Form::EnumConst(kind) => {
                let v = a.const_uint(id).ok_or("enum value")? as u32;
                if !kind.is_valid(v) {
                    return Err(format!("{} = {v} is not a valid {}", o.name, kind.tosa_name()));
                }
                if let Some(p) = kind.required_profile(v) {
                    if !profiles.contains(&p) {
                        return Err(format!("{} = {v} needs {p}", o.name));
                    }
                }
                ShapeArg::Opaque
            }
            Form::ScalarConst { .. } => ShapeArg::Opaque,
        };
        shape_args.push(arg);
    }
    let (declared, out_elems): (Vec<Vec<u32>>, Vec<Option<ElemType>>) = match a.ty(ty).ok_or("result type")? {
        Type::Tensor(t) => (vec![t.shape.unwrap_or_default().into_iter().map(|d| d as u32).collect()], vec![t.elem]),
        Type::Struct(members) => members
            .iter()
            .map(|&m| {
                let t = a.tensor_type(m).unwrap_or_else(|| panic!("struct member {m} is not a tensor"));
                (t.shape.unwrap_or_default().into_iter().map(|d| d as u32).collect::<Vec<u32>>(), t.elem)
            })
            .unzip(),
        other => return Err(format!("result type {other:?}")),
    };
    let si = ShapeInputs { args: shape_args.clone() };
    check_output(op, &si, &declared).map_err(|e| e.to_string())?;
    let slots = spec.slot_types(&elems, &out_elems).map_err(|e| e.to_string())?;
    let types: Vec<ElemType> = slots.into_iter().collect::<Option<_>>().ok_or("undetermined slot")?;
    let qualifier = match spec.qualifier_operand() {
        None => RowQualifier::Any,
        Some(i) => {
            let id = args[i];
            match spec.operand(i).map(|o| o.name) {
                Some("mode") => {
                    RowQualifier::Mode(ResizeMode::from_u32(a.const_uint(id).unwrap_or(0) as u32).ok_or("mode")?)
                }
                Some("acc_type") => {
                    RowQualifier::AccType(AccType::from_u32(a.const_uint(id).unwrap_or(0) as u32).ok_or("acc_type")?)
                }
                _ => RowQualifier::Scale32(const_bool(a, id).ok_or("scale32")?),
            }
        }
    };
    let row = spec.find_row(&types, qualifier).ok_or_else(|| format!("no type row for {types:?} {qualifier:?}"))?;
    if !row.available(profiles) {
        return Err(format!("row {types:?} is not available under {profiles:?}"));
    }
    // Value ERROR_IFs on constants.
    for (i, &id) in args.iter().enumerate() {
        let o = spec.operand(i).ok_or("operand spec")?;
        match o.value {
            ValueRule::ZeroPoint => {
                let v = const_ints(a, gcs, id).ok_or("zero point values")?;
                let e = elems[i].ok_or("zp elem")?;
                if e != ElemType::I8 && v.iter().any(|&x| x != 0) {
                    return Err(format!("{} = {v:?} non-zero for {e}", o.name));
                }
            }
            ValueRule::RescaleZeroPoint { unsigned_flag } => {
                let v = const_ints(a, gcs, id).ok_or("zero point values")?;
                let e = elems[i].ok_or("zp elem")?;
                let unsigned = args.get(usize::from(unsigned_flag)).and_then(|&f| const_bool(a, f)).unwrap_or(false);
                let ok = match e {
                    ElemType::I8 => true,
                    ElemType::I16 if unsigned => v.iter().all(|&x| x == 0 || x as u16 == 0x8000),
                    _ => v.iter().all(|&x| x == 0),
                };
                if !ok {
                    return Err(format!("{} = {v:?} not allowed for {e} (unsigned {unsigned})", o.name));
                }
            }
            ValueRule::ClampBound => {
                let e = elems[i].ok_or("bound elem")?;
                if e.is_float() {
                    let bits = a.const_tensor_bits(id, 1).ok_or("bound")?;
                    let v = float_bits_to_f64(e, bits[0]).unwrap_or(f64::NAN);
                    if v.is_nan() {
                        return Err(format!("{} is NaN", o.name));
                    }
                }
            }
            _ => {}
        }
    }
    if op == TosaOp::Clamp {
        let e = elems[3].ok_or("clamp elem")?;
        let lo = a.const_tensor_bits(args[0], 1).ok_or("min")?[0];
        let hi = a.const_tensor_bits(args[1], 1).ok_or("max")?[0];
        let bad = if e.is_float() {
            float_bits_to_f64(e, lo).unwrap_or(0.0) > float_bits_to_f64(e, hi).unwrap_or(0.0)
        } else {
            let w = 64 - e.storage_bits();
            ((lo << w) as i64 >> w) > ((hi << w) as i64 >> w)
        };
        if bad {
            return Err("CLAMP min_val > max_val".into());
        }
    }
    if op == TosaOp::Rescale {
        let flag = |i: usize| const_bool(a, args[i]).unwrap_or(false);
        let (scale32, iu, ou) = (flag(0), flag(3), flag(4));
        let (in_e, out_e) = (types[0], types[1]);
        let rounding = a.const_uint(args[1]).unwrap_or(0);
        let bad = (iu && ou)
            || (!scale32 && rounding == 3)
            || (scale32 && in_e == ElemType::I48)
            || (out_e == ElemType::I32 && (iu || ou))
            || (matches!(in_e, ElemType::I32 | ElemType::I48) && (iu || ou));
        if bad {
            return Err(format!(
                "RESCALE flags scale32={scale32} rounding={rounding} iu={iu} ou={ou} for {in_e}->{out_e}"
            ));
        }
    }
    Ok(())
}

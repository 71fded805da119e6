//! Reading operands: SSA values, tensor constants (`tosa.const`), `shape_t`
//! constants (`tosa.const_shape`) and attribute values.

use super::error::MlirErrorKind;
use super::literal::{dense_literal, mlir_elem_type, scalar_literal};
use super::printer::{Operand, Printer, Val, R};
use super::types::{tensor_ty, TensorTy};
use crate::analysis::raw_bits;
use crate::elem::{ElemType, ScalarKind};
use crate::inst::{Id, Inst};
use crate::tosa::enums::{mlir_enum_attr, MlirEnumStyle};
use crate::tosa::{AccType, EnumKind, MlirAttr, OperandSpec};
use std::fmt::Write as _;

/// Largest constant (in elements) the printer reads from the module.
/// (Graph-constant data comes from the caller and is not bounded here.)
const MAX_CONSTANT_ELEMENTS: u64 = 1 << 22;

impl<'a, 'm> Printer<'a, 'm> {
    /// The SSA operand for a tensor value: a graph input, an earlier result,
    /// or a constant (materialized as `tosa.const` at its first use).
    pub(super) fn value(&mut self, id: Id, what: &str) -> R<Operand> {
        if !self.values.contains_key(&id) {
            match self.a.def(id) {
                Some(inst) if inst.is_constant() => self.materialize(id, what)?,
                _ => return self.fail(MlirErrorKind::UndefinedValue { what: what.to_string(), id }),
            }
        }
        match self.values.get(&id) {
            Some(Val::Tensor { name, ty }) => {
                Ok(Operand { name: name.clone(), ty: ty.mlir(), tensor: Some(ty.clone()) })
            }
            Some(Val::Pair { .. }) => self.fail(MlirErrorKind::BadExtract {
                reason: format!("is missing: {what} uses the two-member result {id} directly"),
            }),
            None => self.fail(MlirErrorKind::UndefinedValue { what: what.to_string(), id }),
        }
    }

    pub(super) fn require_constant(&self, o: &OperandSpec, id: Id) -> R<()> {
        match self.a.def(id) {
            Some(inst) if inst.is_constant() => Ok(()),
            _ => self.fail(MlirErrorKind::NotConstant { operand: o.name, id }),
        }
    }

    /// Emits `tosa.const` for a tensor constant.
    fn materialize(&mut self, id: Id, what: &str) -> R<()> {
        let (ty, bits) = self.tensor_constant(id, what)?;
        let dense = self.lift(dense_literal(ty.elem, &ty.shape, &bits).map_err(|reason| bad(what, id, reason)))?;
        let name = self.fresh();
        let t = ty.mlir();
        let _ = writeln!(self.body, "  {name} = \"tosa.const\"() <{{values = {dense} : {t}}}> : () -> {t}");
        self.values.insert(id, Val::Tensor { name, ty });
        Ok(())
    }

    /// The type and raw element bits of a tensor constant, including
    /// `OpGraphConstantARM` (from the supplied data).
    fn tensor_constant(&self, id: Id, what: &str) -> R<(TensorTy, Vec<u64>)> {
        let Some(inst) = self.a.def(id) else {
            return self.fail(MlirErrorKind::UndefinedValue { what: what.to_string(), id });
        };
        let Some(ty_id) = inst.result_type() else {
            return self.fail(bad(what, id, "has no result type".into()));
        };
        let ty = self.lift(tensor_ty(self.a, ty_id, &format!("{what} ({id})")))?;
        if let Inst::GraphConstant { graph_constant_id, .. } = inst {
            let Some(data) = self.data.get(graph_constant_id) else {
                return self.fail(MlirErrorKind::MissingGraphConstant { graph_constant_id: *graph_constant_id });
            };
            let same_shape = data.shape().len() == ty.shape.len()
                && data.shape().iter().zip(&ty.shape).all(|(&a, &b)| a as u64 == b);
            if data.elem() != ty.elem || !same_shape {
                return self.fail(MlirErrorKind::GraphConstantMismatch {
                    graph_constant_id: *graph_constant_id,
                    elem: ty.elem,
                    shape: ty.shape.clone(),
                    found_elem: data.elem(),
                    found_shape: data.shape().to_vec(),
                });
            }
            return Ok((ty, data.to_bits()));
        }
        if ty.count() > MAX_CONSTANT_ELEMENTS {
            return self.fail(bad(what, id, format!("more than {MAX_CONSTANT_ELEMENTS} elements")));
        }
        match self.a.const_tensor_bits(id, MAX_CONSTANT_ELEMENTS) {
            Some(bits) if bits.len() as u64 == ty.count() => Ok((ty, bits)),
            _ => self.fail(bad(
                what,
                id,
                "cannot read its value (a specialization constant, or constituents that do not fill the shape)".into(),
            )),
        }
    }

    /// A `shape_t` operand as `tosa.const_shape` (once per constant).
    pub(super) fn const_shape(&mut self, o: &OperandSpec, id: Id) -> R<Operand> {
        self.require_constant(o, id)?;
        if let Some((name, n)) = self.shapes.get(&id) {
            return Ok(Operand { name: name.clone(), ty: format!("!tosa.shape<{n}>"), tensor: None });
        }
        let values = self.i32_vector(o, id)?;
        let n = values.len();
        let name = self.shape_const(&values);
        self.shapes.insert(id, (name.clone(), n));
        Ok(Operand { name, ty: format!("!tosa.shape<{n}>"), tensor: None })
    }

    /// Emits a `tosa.const_shape` holding `values`.
    pub(super) fn shape_const(&mut self, values: &[i64]) -> String {
        let name = self.fresh();
        let n = values.len();
        let list: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        let _ = writeln!(
            self.body,
            "  {name} = \"tosa.const_shape\"() <{{values = dense<[{}]> : tensor<{n}xindex>}}> : () -> !tosa.shape<{n}>",
            list.join(", ")
        );
        name
    }

    /// The elements of a rank-1 tensor constant of 32-bit integers, read as signed.
    fn i32_vector(&self, o: &OperandSpec, id: Id) -> R<Vec<i64>> {
        let what = format!("operand {}", o.name);
        let (ty, bits) = self.tensor_constant(id, &what)?;
        if ty.elem != ElemType::I32 || ty.shape.len() != 1 {
            return self.fail(bad(&what, id, format!("must be a rank-1 tensor of 32-bit integers, not {}", ty.mlir())));
        }
        Ok(bits.iter().map(|&b| i64::from(b as u32 as i32)).collect())
    }

    /// The MLIR text of an attribute value.
    pub(super) fn attribute(&self, o: &OperandSpec, kind: MlirAttr, id: Id) -> R<String> {
        self.require_constant(o, id)?;
        let array = |ty: &str, v: Vec<i64>| {
            if v.is_empty() {
                format!("array<{ty}>")
            } else {
                format!("array<{ty}: {}>", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "))
            }
        };
        Ok(match kind {
            MlirAttr::I64Array => array("i64", self.i32_vector(o, id)?),
            MlirAttr::I32Array => array("i32", self.i32_vector(o, id)?),
            MlirAttr::I32 => format!("{} : i32", self.scalar_u32(o, id)? as i32),
            MlirAttr::Bool => self.scalar_bool(o, id)?.to_string(),
            MlirAttr::AccType => {
                let v = self.scalar_u32(o, id)?;
                match AccType::from_u32(v) {
                    Some(a) => a.mlir_name().to_string(),
                    None => return self.fail(bad_enum(o, EnumKind::AccType, v)),
                }
            }
            MlirAttr::Enum(k) => {
                let v = self.scalar_u32(o, id)?;
                match mlir_enum_attr(k, v, MlirEnumStyle::Generic) {
                    Some(s) => s,
                    None => return self.fail(bad_enum(o, k, v)),
                }
            }
            MlirAttr::ElemScalar { .. } => {
                let (elem, bits) = self.scalar_elem(o, id)?;
                let lit = self.lift(
                    scalar_literal(elem, bits).map_err(|reason| bad(&format!("operand {}", o.name), id, reason)),
                )?;
                format!("{lit} : {}", mlir_elem_type(elem))
            }
        })
    }

    /// A scalar constant's declaration, accepting specialization constants
    /// (whose default value is printed: MLIR has no specialization).
    fn scalar_def(&self, o: &OperandSpec, id: Id) -> R<(ScalarKind, &'m Inst)> {
        let Some(inst) = self.a.def(id) else { return self.fail(MlirErrorKind::NotConstant { operand: o.name, id }) };
        match inst.result_type().and_then(|t| self.a.scalar_kind(t)) {
            Some(kind) => Ok((kind, inst)),
            None => self.fail(bad(&format!("operand {}", o.name), id, "must be a scalar constant".into())),
        }
    }

    fn scalar_u32(&self, o: &OperandSpec, id: Id) -> R<u32> {
        match self.scalar_def(o, id)? {
            (ScalarKind::Int { width: 32, .. }, Inst::Constant { value, .. }) => {
                Ok(value.first().copied().unwrap_or(0))
            }
            (ScalarKind::Int { width: 32, .. }, Inst::ConstantNull { .. }) => Ok(0),
            _ => self.fail(bad(&format!("operand {}", o.name), id, "must be a 32-bit integer constant".into())),
        }
    }

    fn scalar_bool(&self, o: &OperandSpec, id: Id) -> R<bool> {
        match self.scalar_def(o, id)? {
            (ScalarKind::Bool, Inst::ConstantTrue { .. }) => Ok(true),
            (ScalarKind::Bool, Inst::ConstantFalse { .. } | Inst::ConstantNull { .. }) => Ok(false),
            _ => self.fail(bad(&format!("operand {}", o.name), id, "must be a bool constant".into())),
        }
    }

    /// A scalar constant of a TOSA element type (CLAMP bounds).
    fn scalar_elem(&self, o: &OperandSpec, id: Id) -> R<(ElemType, u64)> {
        let (kind, inst) = self.scalar_def(o, id)?;
        let what = format!("operand {}", o.name);
        let Some(elem) = ElemType::from_spirv(kind) else {
            return self.fail(bad(&what, id, "has a type that is not a TOSA element type".into()));
        };
        let width = match kind {
            ScalarKind::Int { width, .. } | ScalarKind::Float { width, .. } => width,
            ScalarKind::Bool => 1,
        };
        match inst {
            Inst::Constant { value, .. } => Ok((elem, raw_bits(value, width))),
            Inst::ConstantTrue { .. } => Ok((elem, 1)),
            Inst::ConstantFalse { .. } | Inst::ConstantNull { .. } => Ok((elem, 0)),
            _ => self.fail(bad(&what, id, "must be a scalar constant".into())),
        }
    }
}

fn bad(what: &str, id: Id, reason: String) -> MlirErrorKind {
    MlirErrorKind::BadConstant { what: what.to_string(), id, reason }
}

fn bad_enum(o: &OperandSpec, kind: EnumKind, value: u32) -> MlirErrorKind {
    MlirErrorKind::BadEnum { operand: o.name, kind: kind.tosa_name(), value }
}

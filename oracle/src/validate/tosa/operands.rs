//! Reading a TOSA instruction's operands against their catalogue form: is it
//! the right kind of SPIR-V construct, is it constant where it must be, and
//! what element type, shape and constant values does it have.

use super::super::context::Cx;
use spvgraph_ir::elem::{ElemType, ScalarKind};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::{Form, OperandSpec, TosaOp};

/// Most elements read from one constant operand (TABLE has 513, per-channel
/// RESCALE multipliers one per channel).
const VALUE_LIMIT: u64 = 1 << 16;

/// Constant values of an operand: one value (scalars), or many (tensor
/// constants) kept in the instruction's value buffer (`Facts::values`), so
/// that reading them allocates nothing. Read them with `Facts::bits`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Vals {
    /// Not a readable constant.
    #[default]
    Unknown,
    /// A scalar constant.
    One(u64),
    /// A tensor constant, flattened: `len` values from `start` in the buffer.
    Many {
        /// First value's index.
        start: usize,
        /// How many values.
        len: usize,
    },
}

impl Vals {
    fn one(v: Option<u64>) -> Vals {
        v.map_or(Vals::Unknown, Vals::One)
    }
}

/// What is known about one operand.
#[derive(Clone, Copy, Debug, Default)]
pub struct Operand {
    /// Element type (scalar type for scalar constants), for the type slots.
    pub elem: Option<ElemType>,
    /// The operand's tensor type when it is shaped and TOSA can read the
    /// shape (its position for `Cx::tensor_dims`).
    pub shape: Option<usize>,
    /// Raw constant values, when the operand is a readable constant.
    pub bits: Vals,
    /// False when a form or constness problem was reported: later checks
    /// that would only repeat it (values, shapes) skip the instruction.
    pub ok: bool,
    /// The element type is not one TOSA knows (e.g. a 64-bit float).
    pub foreign: bool,
}

/// A short description of an operand for messages (formatted only when a
/// message is rendered).
pub fn label(index: usize, spec: &OperandSpec) -> impl std::fmt::Display + '_ {
    struct Label<'s>(usize, &'s OperandSpec);
    impl std::fmt::Display for Label<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "operand {} ({})", self.0, self.1.name)
        }
    }
    Label(index, spec)
}

fn scalar_elem(kind: Option<ScalarKind>) -> (Option<ElemType>, bool) {
    match kind {
        Some(k) => match ElemType::from_spirv(k) {
            Some(e) => (Some(e), false),
            None => (None, true),
        },
        None => (None, false),
    }
}

/// Reads operand `index` (`arg`) of a `op` instruction at `at`, reporting
/// form and constness problems; tensor constants' values go to `values`.
pub fn read(
    cx: &mut Cx<'_>,
    at: usize,
    op: TosaOp,
    (index, spec): (usize, &OperandSpec),
    arg: Id,
    values: &mut Vec<u64>,
) -> Operand {
    let mut out = Operand::default();
    let Some(def) = cx.def(arg) else {
        // Undefined ids are reported by the id checks.
        return out;
    };
    let constant = def.is_constant();
    let ty = def.result_type();
    // (element type, shape) of a tensor-typed operand, without cloning the type.
    let tensor = ty
        .and_then(|t| cx.tensor_index(t))
        .and_then(|k| Some((cx.tensor_by_index(k)?.elem, cx.tensor_dims(k).map(|_| k))));
    let scalar = ty.and_then(|t| cx.scalar(t));
    if spec.role.must_be_constant() && !constant {
        let name = label(index, spec);
        cx.at(
            at,
            RuleId::TosaOperandNotConstant,
            format_args!("{op}: {name} must come from a constant instruction, but %{} is not a constant", arg.0),
        );
        if let Some((elem, _)) = tensor {
            (out.elem, out.foreign) = (elem, elem.is_none());
        }
        return out;
    }
    let form_err = |cx: &mut Cx<'_>, what: &str| {
        let name = label(index, spec);
        cx.at(at, RuleId::TosaOperandForm, format_args!("{op}: {name} must be {what}, but %{} is not", arg.0));
    };
    match spec.form {
        Form::EnumConst(_) | Form::AxisConst { .. } => {
            let ok = matches!(def, Inst::Constant { .. } | Inst::ConstantNull { .. })
                && matches!(scalar, Some(ScalarKind::Int { width: 32, .. }));
            if !ok {
                form_err(cx, "an OpConstant of a 32-bit integer type");
                return out;
            }
            out.elem = Some(ElemType::I32);
            out.bits = Vals::one(scalar.and_then(|k| cx.scalar_bits(def, k)));
        }
        Form::BoolConst => {
            let ok = matches!(def, Inst::ConstantTrue { .. } | Inst::ConstantFalse { .. } | Inst::ConstantNull { .. })
                && scalar == Some(ScalarKind::Bool);
            if !ok {
                form_err(cx, "OpConstantTrue or OpConstantFalse (bool)");
                return out;
            }
            out.elem = Some(ElemType::Bool);
            out.bits = match def {
                Inst::ConstantTrue { spec: false, .. } => Vals::One(1),
                Inst::ConstantFalse { spec: false, .. } | Inst::ConstantNull { .. } => Vals::One(0),
                _ => Vals::Unknown,
            };
        }
        Form::ScalarConst { .. } => {
            let ok = matches!(
                def,
                Inst::Constant { .. }
                    | Inst::ConstantNull { .. }
                    | Inst::ConstantTrue { .. }
                    | Inst::ConstantFalse { .. }
            ) && scalar.is_some();
            if !ok {
                form_err(cx, "a scalar constant of the input's element type");
                return out;
            }
            (out.elem, out.foreign) = scalar_elem(scalar);
            out.bits = Vals::one(scalar.and_then(|k| cx.scalar_bits(def, k)));
        }
        Form::I32Array { .. } | Form::ConstTensor { .. } => {
            let Some((elem, dims)) = tensor else {
                form_err(cx, "a rank-1 tensor constant");
                return out;
            };
            (out.elem, out.foreign, out.shape) = (elem, elem.is_none(), dims);
            if let Some(shape) = out.shape.and_then(|k| cx.tensor_dims(k)) {
                if shape.len() != 1 {
                    let name = label(index, spec);
                    let message =
                        cx.text(format_args!("{op}: {name} must be a rank-1 tensor, but its shape is {shape:?}"));
                    cx.at(at, RuleId::TosaShapeRank, message);
                    return out;
                }
            }
            out.bits = cx
                .const_bits_into(arg, VALUE_LIMIT, values)
                .map_or(Vals::Unknown, |(start, len)| Vals::Many { start, len });
        }
        Form::Tensor { .. } => {
            let Some((elem, dims)) = tensor else {
                form_err(cx, "a tensor value");
                return out;
            };
            (out.elem, out.foreign, out.shape) = (elem, elem.is_none(), dims);
        }
    }
    out.ok = true;
    out
}

/// A constant value as a signed 32-bit integer (attribute arrays and
/// shape_t values are i32 read as signed).
pub fn as_i32(bits: u64) -> i64 {
    i64::from(bits as u32 as i32)
}

//! One operator invocation as the operator implementations see it: resolved
//! operands looked up by their catalogue names, the chosen type row, and the
//! (already checked) output shapes.

use super::error::OpError;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{OpSpec, TosaOp};

/// A resolved operand.
#[derive(Debug)]
pub(crate) enum Operand<'a> {
    /// A tensor value or tensor constant.
    Tensor(&'a TensorData),
    /// A rank-1 i32 constant (attribute array or `shape_t`), values signed.
    Ints(Vec<i64>),
    /// An enum or axis scalar constant (axis read as signed i32).
    Int(i64),
    /// A bool constant.
    Bool(bool),
    /// A scalar constant of an element type, as raw bits (CLAMP bounds).
    Scalar(u64),
}

/// The operands, type row and output shapes of one operator instruction.
pub(crate) struct Ctx<'a> {
    pub(crate) op: TosaOp,
    pub(crate) spec: &'static OpSpec,
    /// Element type of each type slot of the chosen row.
    pub(crate) types: &'static [ElemType],
    pub(crate) operands: Vec<Operand<'a>>,
    /// Declared (and checked) shape of each result tensor.
    pub(crate) out_shapes: Vec<Vec<usize>>,
}

impl<'a> Ctx<'a> {
    fn index(&self, name: &str) -> Result<usize, OpError> {
        self.spec
            .operand_named(name)
            .map(|(i, _)| i)
            .ok_or_else(|| OpError::invalid(format!("{}: the catalogue has no operand {name:?}", self.op)))
    }

    fn get(&self, name: &str) -> Result<&Operand<'a>, OpError> {
        let i = self.index(name)?;
        self.operands.get(i).ok_or_else(|| OpError::invalid(format!("{}: operand {name} is missing", self.op)))
    }

    /// The tensor operand called `name`.
    pub(crate) fn tensor(&self, name: &str) -> Result<&'a TensorData, OpError> {
        match self.get(name)? {
            Operand::Tensor(t) => Ok(t),
            _ => Err(OpError::invalid(format!("{}: operand {name} is not a tensor", self.op))),
        }
    }

    /// Every tensor operand from position `from` on (CONCAT's inputs).
    pub(crate) fn tensors_from(&self, from: usize) -> Result<Vec<&'a TensorData>, OpError> {
        self.operands
            .iter()
            .skip(from)
            .map(|o| match o {
                Operand::Tensor(t) => Ok(*t),
                _ => Err(OpError::invalid(format!("{}: variadic operand is not a tensor", self.op))),
            })
            .collect()
    }

    /// The integer-array operand called `name`.
    pub(crate) fn ints(&self, name: &str) -> Result<&[i64], OpError> {
        match self.get(name)? {
            Operand::Ints(v) => Ok(v),
            _ => Err(OpError::invalid(format!("{}: operand {name} is not an i32 array constant", self.op))),
        }
    }

    /// The integer-array operand called `name`, with exactly `N` elements.
    pub(crate) fn ints_n<const N: usize>(&self, name: &str) -> Result<[i64; N], OpError> {
        let v = self.ints(name)?;
        <[i64; N]>::try_from(v)
            .map_err(|_| OpError::invalid(format!("{}: {name} has {} elements, expected {N}", self.op, v.len())))
    }

    /// The scalar enum/axis operand called `name`.
    pub(crate) fn int(&self, name: &str) -> Result<i64, OpError> {
        match self.get(name)? {
            Operand::Int(v) => Ok(*v),
            _ => Err(OpError::invalid(format!("{}: operand {name} is not an integer constant", self.op))),
        }
    }

    /// The bool operand called `name`.
    pub(crate) fn flag(&self, name: &str) -> Result<bool, OpError> {
        match self.get(name)? {
            Operand::Bool(v) => Ok(*v),
            _ => Err(OpError::invalid(format!("{}: operand {name} is not a bool constant", self.op))),
        }
    }

    /// The raw bits of the scalar-constant operand called `name`.
    pub(crate) fn scalar(&self, name: &str) -> Result<u64, OpError> {
        match self.get(name)? {
            Operand::Scalar(v) => Ok(*v),
            _ => Err(OpError::invalid(format!("{}: operand {name} is not a scalar constant", self.op))),
        }
    }

    /// The element type of type slot `slot` (`in_t`, `out_t`, ...) by name.
    pub(crate) fn slot(&self, name: &str) -> Result<ElemType, OpError> {
        self.spec
            .slots
            .iter()
            .position(|s| *s == name)
            .and_then(|i| self.types.get(i).copied())
            .ok_or_else(|| OpError::invalid(format!("{}: no type slot {name}", self.op)))
    }

    /// The element type of the result.
    pub(crate) fn out_elem(&self) -> Result<ElemType, OpError> {
        self.types
            .get(usize::from(self.spec.result.slot))
            .copied()
            .ok_or_else(|| OpError::invalid(format!("{}: no result slot", self.op)))
    }

    /// The shape of result `i`.
    pub(crate) fn out_shape(&self, i: usize) -> Result<&[usize], OpError> {
        self.out_shapes.get(i).map(Vec::as_slice).ok_or_else(|| OpError::invalid(format!("{}: no result {i}", self.op)))
    }

    /// A zero-point operand (`[1]` tensor constant) as a signed value,
    /// checking the ERROR_IF that it is zero unless its type is i8 (0.0 for
    /// floats, either sign).
    pub(crate) fn zero_point(&self, name: &str) -> Result<i64, OpError> {
        let t = self.tensor(name)?;
        let bits = t.to_bits();
        let [b] = bits.as_slice() else {
            return Err(OpError::invalid(format!("{}: {name} must have exactly one element", self.op)));
        };
        let elem = t.elem();
        if elem.is_float() {
            return if super::fp::decode_elem(elem, *b).is_some_and(|v| v == 0.0) {
                Ok(0)
            } else {
                Err(OpError::invalid(format!("{}: {name} must be 0.0 for {elem} (ERROR_IF)", self.op)))
            };
        }
        // to_bits sign-extends integers.
        let value = *b as i64;
        if elem != ElemType::I8 && value != 0 {
            return Err(OpError::invalid(format!("{}: {name} = {value} must be 0 for {elem} (ERROR_IF)", self.op)));
        }
        Ok(value)
    }
}

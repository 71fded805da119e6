//! Resolving SPIR-V types to the shaped tensor types TOSA MLIR needs.

use super::error::MlirErrorKind;
use super::literal::mlir_type;
use crate::analysis::{Analysis, Type};
use crate::elem::ElemType;
use crate::inst::Id;

/// Largest tensor-array length accepted at an interface; a bound so that a
/// hostile length constant cannot make the printer allocate without limit.
const MAX_ARRAY_LEN: u64 = 1 << 16;

/// A shaped tensor type with a TOSA element type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TensorTy {
    /// Element type.
    pub elem: ElemType,
    /// Dimensions.
    pub shape: Vec<u64>,
}

impl TensorTy {
    /// The MLIR type text.
    pub fn mlir(&self) -> String {
        mlir_type(self.elem, &self.shape)
    }

    /// The number of elements (saturating; only compared, never allocated).
    pub fn count(&self) -> u64 {
        self.shape.iter().fold(1u64, |a, &d| a.saturating_mul(d))
    }
}

/// The shaped tensor type `ty`; `what` names its owner in errors.
pub(crate) fn tensor_ty(a: &Analysis<'_>, ty: Id, what: &str) -> Result<TensorTy, MlirErrorKind> {
    let Some(t) = a.tensor_type(ty) else {
        return Err(MlirErrorKind::NotATensor { what: what.to_string(), ty, expected: "a tensor type" });
    };
    let Some(elem) = t.elem else {
        return Err(MlirErrorKind::UnsupportedElement { what: what.to_string(), ty: t.element });
    };
    match t.shape {
        Some(shape) => Ok(TensorTy { elem, shape }),
        None => Err(MlirErrorKind::UnshapedTensor { what: what.to_string(), ty }),
    }
}

/// One interface entry of a graph type: a tensor (`None`) or an array of
/// `n` tensors, one per ElementIndex.
pub(crate) fn interface_entry(a: &Analysis<'_>, ty: Id, what: &str) -> Result<(TensorTy, Option<u64>), MlirErrorKind> {
    match a.ty(ty) {
        Some(Type::Array { element, length }) => {
            let Some(n) = length else {
                return Err(MlirErrorKind::BadIndex {
                    what: format!("{what} is a tensor array whose length is not a constant"),
                });
            };
            if n == 0 || n > MAX_ARRAY_LEN {
                return Err(MlirErrorKind::BadIndex {
                    what: format!("{what} is a tensor array of length {n} (printable: 1..={MAX_ARRAY_LEN})"),
                });
            }
            Ok((tensor_ty(a, element, what)?, Some(n)))
        }
        Some(Type::Tensor(_)) => Ok((tensor_ty(a, ty, what)?, None)),
        _ => Err(MlirErrorKind::NotATensor { what: what.to_string(), ty, expected: "a tensor or an array of tensors" }),
    }
}

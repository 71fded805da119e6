//! Reading constant operands: scalar constants (specialization constants
//! read at their default value, as a consumer without specialization data
//! would), tensor constants in every form, and graph constants from the
//! caller's data.

use super::interface::tensor_of;
use spvgraph_ir::analysis::{raw_bits, Analysis};
use spvgraph_ir::elem::{ElemType, ScalarKind};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::{Id, Inst};
use std::collections::BTreeMap;

/// The scalar type and raw bits of a scalar constant.
pub(crate) fn scalar(a: &Analysis<'_>, id: Id) -> Option<(ScalarKind, u64)> {
    let inst = a.def(id)?;
    let kind = a.scalar_kind(inst.result_type()?)?;
    let bits = match (inst, kind) {
        (Inst::ConstantTrue { .. }, ScalarKind::Bool) => 1,
        (Inst::ConstantFalse { .. }, ScalarKind::Bool) => 0,
        (Inst::ConstantNull { .. }, _) => 0,
        (Inst::Constant { value, .. }, ScalarKind::Int { width, .. } | ScalarKind::Float { width, .. }) => {
            raw_bits(value, width)
        }
        _ => return None,
    };
    Some((kind, bits))
}

/// The element type of a scalar constant.
pub(crate) fn scalar_elem(a: &Analysis<'_>, id: Id) -> Option<ElemType> {
    scalar(a, id).and_then(|(k, _)| ElemType::from_spirv(k))
}

/// Why a tensor constant could not be read.
pub(crate) enum ConstError {
    /// Not a (readable) tensor constant.
    NotConstant(String),
    /// A graph constant whose data was not supplied or does not fit its type.
    Request(String),
}

/// Materializes a tensor constant: composite, null, replicate or graph constant.
pub(crate) fn tensor(
    a: &Analysis<'_>,
    id: Id,
    graph_constants: &BTreeMap<u32, TensorData>,
    limit: u64,
) -> Result<TensorData, ConstError> {
    let inst = a.def(id).ok_or_else(|| ConstError::NotConstant(format!("{id} is not defined")))?;
    let ty = inst.result_type().ok_or_else(|| ConstError::NotConstant(format!("{id} has no type")))?;
    let (elem, shape) =
        tensor_of(a, ty).ok_or_else(|| ConstError::NotConstant(format!("{id} is not of a shaped tensor type")))?;
    if let Inst::GraphConstant { graph_constant_id, .. } = inst {
        let data = graph_constants.get(graph_constant_id).ok_or_else(|| {
            ConstError::Request(format!("no data for graph constant {graph_constant_id} ({elem} {shape:?})"))
        })?;
        if data.elem() != elem || data.shape() != shape.as_slice() {
            return Err(ConstError::Request(format!(
                "graph constant {graph_constant_id} is declared {elem} {shape:?} but the data is {} {:?}",
                data.elem(),
                data.shape()
            )));
        }
        return Ok(data.clone());
    }
    let bits = a
        .const_tensor_bits(id, limit)
        .ok_or_else(|| ConstError::NotConstant(format!("{id} is not a readable tensor constant")))?;
    TensorData::from_bits(elem, &shape, &bits).map_err(|e| ConstError::NotConstant(format!("{id}: {e}")))
}

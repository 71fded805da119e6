//! TOSA level limits ([`spvgraph_ir::tosa::level`]). A level check is a
//! REQUIRE: a graph beyond the limits is valid, but its execution is
//! unpredictable, so the executor refuses it as [`Require::Level`] before
//! running the operator.

use super::error::OpError;
use super::intmath::Require;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::level::LevelTensor;
use spvgraph_ir::tosa::{level_violations, Level, ShapeArg, ShapeInputs, TosaOp};

/// Checks the level limits of one instruction: its operands as shape
/// inference sees them (`elems`: their element types) and its results
/// (declared shapes and element types). Every tensor operand and result
/// counts for the rank and size limits.
pub(crate) fn check(
    level: Level,
    op: TosaOp,
    inputs: &ShapeInputs,
    elems: &[Option<ElemType>],
    results: &[(Vec<u32>, ElemType)],
) -> Result<(), OpError> {
    let operands = inputs.args.iter().zip(elems).filter_map(|(arg, &elem)| match arg {
        ShapeArg::Tensor(s) => Some((Some(s.as_slice()), elem)),
        _ => None,
    });
    let tensors: Vec<LevelTensor<'_>> =
        operands.chain(results.iter().map(|(s, e)| (Some(s.as_slice()), Some(*e)))).collect();
    match level_violations(level, op, inputs, &tensors).first() {
        Some(v) => Err(OpError::require(Require::Level(v.limit))),
        None => Ok(()),
    }
}

//! TOSA level limits (REQUIREs, reported as warnings), as
//! [`spvgraph_ir::tosa::level`] defines them: ranks, tensor sizes,
//! kernel/stride/pad sizes, RESIZE scale and CONCAT list length.

use super::super::context::Cx;
use super::shapes::declared_shape;
use super::Facts;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::level::LevelTensor;
use spvgraph_ir::tosa::{level_violations, Form, LevelLimit, ShapeArg, ShapeInputs};

/// The rule each limit reports under.
fn rule(limit: LevelLimit) -> RuleId {
    match limit {
        LevelLimit::MaxRank => RuleId::LevelRank,
        LevelLimit::MaxLog2Size => RuleId::LevelTensorSize,
        LevelLimit::MaxKernel => RuleId::LevelKernel,
        LevelLimit::MaxStride => RuleId::LevelStride,
        LevelLimit::MaxScale => RuleId::LevelScale,
        LevelLimit::MaxTensorListSize => RuleId::LevelTensorList,
    }
}

/// Runs the level checks of one instruction; `seen` holds the tensors
/// (shape, element type) whose size was already reported (each once).
pub fn check(
    cx: &mut Cx<'_>,
    f: &Facts,
    inputs: &ShapeInputs,
    declared: &[Vec<u32>],
    seen: &mut Vec<(Vec<u32>, ElemType)>,
) {
    let spec = f.op.spec();
    // Tensor operands (not constant-tensor operands) and results count for
    // ranks and sizes.
    let operands = f
        .operands
        .iter()
        .enumerate()
        .filter(|(k, _)| matches!(spec.operand(*k).map(|s| s.form), Some(Form::Tensor { .. })))
        .map(|(k, o)| match inputs.args.get(k) {
            Some(ShapeArg::Tensor(s)) => (Some(s.as_slice()), o.elem),
            _ => (None, o.elem),
        });
    let results = f.results.iter().enumerate().map(|(j, r)| (declared_shape(f, declared, j), r.elem));
    let tensors: Vec<LevelTensor<'_>> = operands.chain(results).collect();
    for v in level_violations(cx.level(), f.op, inputs, &tensors) {
        if let Some(tensor) = &v.tensor {
            if seen.contains(tensor) {
                continue;
            }
            seen.push(tensor.clone());
        }
        cx.at(f.at, rule(v.limit), format_args!("{}: {v}", f.op));
    }
}

//! Mutators for the TOSA shape and attribute rules (`tosa.shape.*`,
//! `tosa.attribute.*`, `tosa.transpose.perms`, `tosa.fft.*`, zero points,
//! RESCALE and CLAMP rules). Most break a dead copy of an instruction so
//! that no consumer inherits the break.

use super::{no_bias, Edit, Mutator};
use spvgraph_ir::inst::Inst;
use spvgraph_ir::rules::RuleId;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![Mutator { rule: RuleId::TosaShapeOutput, name: "grow-result-dim", bias: no_bias, apply: grow_result_dim }]
}

/// A dead copy of an instruction whose Result Type has one dimension grown by one.
fn grow_result_dim(e: &mut Edit) -> Option<()> {
    let candidates: Vec<usize> = e
        .tosa_where(|_, _| true)
        .into_iter()
        .filter(|&i| matches!(e.module.insts.get(i), Some(Inst::Tosa { ty, .. }) if e.shape_of(*ty).is_some()))
        .collect();
    let at = e.choose(&candidates)?;
    let copy = e.dead_copy(at)?;
    let (ty, copy_id, op, _) = e.tosa_mut(copy)?;
    let old = *ty;
    let mut shape = e.shape_of(old)?;
    let d = e.int_in(0, shape.len() as i64 - 1) as usize;
    shape[d] = shape[d].checked_add(1)?;
    let Some(Inst::TypeTensor { element, .. }) = e.def(old) else { return None };
    let element = *element;
    // Declaring the type shifts the graph section: find the copy again by id.
    let new_ty = e.tensor_type(element, &shape);
    let copy = e.def_index(copy_id)?;
    let (ty, ..) = e.tosa_mut(copy)?;
    *ty = new_ty;
    e.note(format!("{}: dead copy with result dimension {d} grown to {}", op.name(), shape[d]));
    Some(())
}

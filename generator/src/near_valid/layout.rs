//! Mutators for the `layout.*` rules (logical layout of the module and of
//! the graph section).

use super::{no_bias, Edit, Mutator};
use spvgraph_ir::inst::Inst;
use spvgraph_ir::rules::RuleId;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![
        Mutator { rule: RuleId::LayoutMemoryModel, name: "drop-memory-model", bias: no_bias, apply: drop_memory_model },
        Mutator {
            rule: RuleId::LayoutMemoryModel,
            name: "duplicate-memory-model",
            bias: no_bias,
            apply: duplicate_memory_model,
        },
    ]
}

fn drop_memory_model(e: &mut Edit) -> Option<()> {
    let at = e.module.insts.iter().position(|i| matches!(i, Inst::MemoryModel { .. }))?;
    e.module.insts.remove(at);
    e.note("removed OpMemoryModel");
    Some(())
}

fn duplicate_memory_model(e: &mut Edit) -> Option<()> {
    let at = e.module.insts.iter().position(|i| matches!(i, Inst::MemoryModel { .. }))?;
    let copy = e.module.insts[at].clone();
    e.module.insts.insert(at + 1, copy);
    e.note("OpMemoryModel twice");
    Some(())
}

//! Interface bindings renumbered densely: every interface variable in
//! DescriptorSet 0, Bindings 0, 1, 2, … in the order the variables are
//! declared.

use super::{Level, Pass};
use crate::candidate::Candidate;
use spirv::Decoration;
use spvgraph_ir::inst::{Id, Inst};
use std::collections::HashMap;

/// Renumbers DescriptorSet/Binding decorations densely.
pub struct DenseBindings;

fn renumbered(c: &Candidate) -> Option<Candidate> {
    let vars: Vec<Id> = c
        .module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Variable { result, .. } => Some(*result),
            _ => None,
        })
        .collect();
    let binding: HashMap<Id, u32> = vars.iter().enumerate().map(|(n, v)| (*v, n as u32)).collect();
    let mut out = c.clone();
    let mut changed = false;
    for inst in &mut out.module.insts {
        if let Inst::Decorate { target, decoration, literals } = inst {
            let want = if *decoration == Decoration::Binding as u32 {
                binding.get(target).copied()
            } else if *decoration == Decoration::DescriptorSet as u32 {
                binding.get(target).map(|_| 0)
            } else {
                None
            };
            if let (Some(w), Some(l)) = (want, literals.first_mut()) {
                changed |= *l != w;
                *l = w;
            }
        }
    }
    changed.then_some(out)
}

impl Pass for DenseBindings {
    fn name(&self) -> &'static str {
        "dense-bindings"
    }
    fn level(&self) -> Level {
        Level::Value
    }
    fn atoms(&self, c: &Candidate) -> usize {
        usize::from(renumbered(c).is_some())
    }
    fn apply(&self, c: &Candidate, _chosen: &[usize]) -> Option<Candidate> {
        renumbered(c)
    }
}

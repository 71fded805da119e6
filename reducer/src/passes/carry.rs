//! Halving a graph input's dimension and carrying the change through the
//! graph with the mutator's shape change
//! (`spvgraph_generator::mutate::shape::carry_input_shape`): where
//! [`super::shrink::ShrinkShapes`] only re-infers result types, this pass
//! also re-fits RESHAPE, SLICE, TILE, PAD and TRANSPOSE attributes and makes
//! other graph inputs and tensor constants that must match follow, so a
//! graph whose shape is pinned by an attribute or a second input still
//! shrinks.

use super::{pick, Level, Pass};
use crate::candidate::Candidate;
use crate::graph;
use spvgraph_generator::mutate::shape::carry_input_shape;
use spvgraph_generator::prng::SplitMix64;
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::inst::Id;

/// Halves one dimension of a graph input at a time, through the shape rules.
pub struct CarryShapes;

/// The shape of input `k` of graph `g`, unless it is a tensor array or unknown.
fn input_shape(c: &Candidate, g: Id, k: u32) -> Option<Vec<u32>> {
    let (inputs, _) = graph::io_types(&c.module, g)?;
    let a = Analysis::new(&c.module);
    let t = *inputs.get(k as usize)?;
    if matches!(a.ty(t), Some(Type::Array { .. })) {
        return None;
    }
    Some(a.tensor_type(t)?.shape?.iter().map(|&d| d as u32).collect())
}

/// Every `(graph, input, dimension)` above 1.
fn atoms(c: &Candidate) -> Vec<(Id, u32, usize)> {
    let a = Analysis::new(&c.module);
    let mut out = Vec::new();
    for g in &a.graphs {
        let Some((inputs, _)) = graph::io_types(&c.module, g.result) else { continue };
        for k in 0..inputs.len() as u32 {
            let Some(shape) = input_shape(c, g.result, k) else { continue };
            out.extend(shape.iter().enumerate().filter(|(_, &n)| n > 1).map(|(d, _)| (g.result, k, d)));
        }
    }
    out
}

impl Pass for CarryShapes {
    fn name(&self) -> &'static str {
        "carry-shapes"
    }

    fn level(&self) -> Level {
        Level::Value
    }

    fn atoms(&self, c: &Candidate) -> usize {
        atoms(c).len()
    }

    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let mut out = c.clone();
        for (g, k, d) in pick(&atoms(c), chosen) {
            let mut to = input_shape(&out, g, k)?;
            let n = to.get_mut(d)?;
            *n = n.div_ceil(2);
            // Re-fitted attributes are drawn: from the atom, so the result
            // depends on the candidate and the choice alone.
            let mut rng = SplitMix64::new((u64::from(g.0) << 40) ^ (u64::from(k) << 8) ^ d as u64);
            out = carry_input_shape(&out, g, k, &to, &mut rng).ok()?.0;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Candidate, Reducer};
    use spvgraph_ir::inst::Inst;
    use spvgraph_ir::tosa::TosaOp;
    use spvgraph_ir::Module;
    use spvgraph_oracle::oracle::ValidateOptions;
    use spvgraph_oracle::validate::Validator;

    /// A RESHAPE whose `shape` attribute pins its input: shapes-to-one and
    /// halve-shapes cannot shrink it (the element count no longer matches),
    /// carry-shapes re-fits the attribute and can.
    #[test]
    fn a_reshape_case_shrinks_further_with_carry_shapes() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/valid/op-reshape-r0.spv");
        let module = Module::decode_bytes(&std::fs::read(path).expect("the corpus case")).expect("decodes");
        let validator = Validator::new(ValidateOptions::default());
        let interesting = |c: &Candidate| {
            c.module.insts.iter().any(|i| matches!(i, Inst::Tosa { op: TosaOp::Reshape, .. }))
                && validator.rule(&c.module).is_valid()
        };
        let all = Reducer::new().pass_names();
        let without: Vec<&str> = all.iter().copied().filter(|n| *n != "carry-shapes").collect();
        let reduce = |names: &[&str]| {
            let r = Reducer::new().jobs(1).only_passes(names).run(Candidate::new(module.clone()), interesting);
            r.expect("interesting").candidate.module.encode_bytes().expect("encodes").len()
        };
        let (with, without) = (reduce(&all), reduce(&without));
        assert!(with < without, "{with} B with carry-shapes, {without} B without");
    }
}

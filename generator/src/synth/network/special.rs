//! The special-value side branch of a floating-point network: a graph
//! input and a constant holding the conformance generator's FP special
//! pairs for one binary operator (infinities against each other, NaN
//! against finite values, ±0, the largest value plus one that overflows),
//! combined, joined to the trunk by an operator that propagates them, then
//! carried through layout and element-wise operators to a graph output.
//!
//! Dot products and RESIZE never read these values (`Value::special`, as
//! for special leaves of random growth), so no compliance check has to
//! compare an infinity that merely overflowed; every operator on the branch
//! defines its result for them.

use super::Net;
use crate::datasets::{self, Special};
use crate::floats;
use crate::synth::node::{Arg, NodeSpec};
use crate::synth::Synth;
use spvgraph_ir::tosa::TosaOp;

impl Synth<'_, '_> {
    /// Adds the branch off the trunk `t`; its last value (an output), if
    /// one could be built.
    pub(crate) fn special_branch(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        let e = net.elem();
        let s = self.shape_of(t);
        let [_, _, w, c] = s.as_slice() else { return None };
        let (w, c) = (*w, *c);
        let ops: Vec<TosaOp> = [TosaOp::Add, TosaOp::Sub, TosaOp::Mul, TosaOp::Maximum, TosaOp::Minimum]
            .into_iter()
            .filter(|&op| self.has_row(op, &[e, e], e))
            .collect();
        let op = *self.dice.pick(&ops)?;
        let pairs = datasets::special_pairs(op, e)?;
        if !self.room(4 * self.trunk_elements(t)) {
            return None;
        }
        // One pair per element of a [1, 1, W, C] slab, every pair present.
        let count = (w * c) as usize;
        let mut a = Vec::with_capacity(count);
        let mut b = Vec::with_capacity(count);
        for i in 0..count {
            let (x, y) = pairs[i % pairs.len()];
            a.push(floats::encode(e, x.value(e, &mut self.rng)));
            b.push(floats::encode(e, y.value(e, &mut self.rng)));
        }
        self.feature(format!("net:special-branch={}", op.name()));
        let shape = [1, 1, w, c];
        let xa = self.net_leaf(e, &shape, &a, true);
        let xb = self.net_leaf(e, &shape, &b, false);
        let u = match op {
            TosaOp::Mul => self.net_mul(xa, xb)?,
            TosaOp::Maximum | TosaOp::Minimum => self.net_minmax(op, xa, xb)?,
            _ => self.net_binary(op, xa, xb)?,
        };
        // Joined to the trunk by broadcasting.
        let joined = match self.dice.below(3) {
            0 => self.net_binary(TosaOp::Add, t, u)?,
            1 => self.net_mul(t, u)?,
            _ => self.net_minmax(TosaOp::Maximum, t, u)?,
        };
        let mut v = joined;
        for _ in 0..self.dice.range_u32(1, 3) {
            v = self.propagate(v).unwrap_or(v);
        }
        // A single operand through the default special set too: ABS or
        // NEGATE of the values every conformance unary test starts from.
        if self.dice.chance(0.5) {
            let singles = datasets::special_singles();
            let bits: Vec<u64> = (0..c as usize)
                .map(|i| floats::encode(e, singles[i % singles.len()].value(e, &mut self.rng)))
                .collect();
            let z = self.net_leaf(e, &[1, 1, 1, c], &bits, true);
            if let Some(y) = self.net_minmax(TosaOp::Minimum, v, z) {
                v = y;
            }
        }
        Some(v)
    }

    /// One operator that carries NaN and infinities along: CLAMP, a
    /// layout change, MAX_POOL2D, REDUCE_MAX, ABS or NEGATE.
    fn propagate(&mut self, v: usize) -> Option<usize> {
        let e = self.value(v)?.elem;
        let s = self.shape_of(v);
        match self.dice.below(6) {
            0 => {
                let lo = Special::Max(true).value(e, &mut self.rng) / 2.0;
                self.net_clamp(v, lo, floats::max_finite(e) / 2.0)
            }
            1 => self.net_transpose(v, &[0, 2, 1, 3]),
            2 => {
                let win = self.pool_window(&s, 2, 2, false)?;
                self.net_max_pool(v, win)
            }
            3 => self.net_reduce(TosaOp::ReduceMax, v, 3),
            4 => self.net_unary(TosaOp::Abs, v, e),
            _ => {
                let row = self.net_row(TosaOp::Negate, &[e], e)?;
                let mut n = NodeSpec::new(TosaOp::Negate, row);
                n.arg(Arg::Val(v));
                n.arg(Arg::Tensor(e, vec![0]));
                n.arg(Arg::Tensor(e, vec![0]));
                self.net_emit(n)
            }
        }
    }
}

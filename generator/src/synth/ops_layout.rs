//! Data-layout operators: CONCAT, PAD, RESHAPE, SLICE, TILE, TRANSPOSE.

use super::node::{Arg, NodeSpec, Skip};
use super::{elements, Synth};
use crate::config::LEVEL_8K;
use crate::data;
use crate::range::Domain;
use spvgraph_ir::tosa::{LevelLimits, TosaOp};

/// TOSA 8K MAX_TENSOR_LIST_SIZE: the most inputs of one CONCAT.
const MAX_CONCAT_INPUTS: i64 = LevelLimits::EIGHT_K.max_tensor_list_size as i64;

impl Synth<'_, '_> {
    /// CONCAT: the first input from the pool or fresh, the others sharing
    /// every dimension but `axis` (the same value again, another pool value,
    /// or a fresh leaf).
    pub(crate) fn concat(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        let e = Synth::operand_elem(op, row, "input1")?;
        let need = self.any_need(e);
        let x = self.value_of_rank(e, None, &need);
        let s = self.shape_of(x);
        let axis = self.dice.below(s.len());
        // Wide: up to MAX_TENSOR_LIST_SIZE (64) inputs, fresh ones one slice thick.
        let wide = self.dice.chance(self.cfg.probs.wide_attributes);
        let count = if wide {
            self.wide_pick(2, MAX_CONCAT_INPUTS) as u32
        } else {
            self.dice.range_u32(1, self.cfg.max_concat_inputs.max(1))
        };
        let mut inputs = vec![x];
        let mut total = u64::from(s.get(axis).copied().unwrap_or(1));
        let limit = self.max_extent(&s, axis);
        for _ in 1..count {
            let pick = if self.dice.chance(0.25) {
                Some(x)
            } else {
                self.pick_value(&need, |v| {
                    v.elem == e
                        && v.shape.len() == s.len()
                        && v.shape.iter().zip(&s).enumerate().all(|(i, (a, b))| i == axis || a == b)
                })
            };
            let v = match pick {
                Some(v) => v,
                None => {
                    let mut shape = s.clone();
                    if let Some(d) = shape.get_mut(axis) {
                        *d = if wide { 1 } else { self.dice.range_u32(1, self.cfg.max_dim.max(1)) };
                    }
                    if total + u64::from(shape.get(axis).copied().unwrap_or(1)) > limit {
                        break;
                    }
                    self.fresh_leaf(e, &shape, &need)
                }
            };
            let d = u64::from(self.shape_of(v).get(axis).copied().unwrap_or(1));
            if total + d > limit {
                break;
            }
            total += d;
            inputs.push(v);
        }
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::U32(axis as u32));
        if inputs.len() > 1 {
            self.op_feature(format!("concat:inputs={}", inputs.len().min(4)));
        }
        if inputs.len() as i64 >= MAX_CONCAT_INPUTS / 2 {
            self.op_feature("level:concat-inputs>=32");
        }
        for v in inputs {
            n.arg(Arg::Val(v));
        }
        Ok(n)
    }

    /// PAD, RESHAPE, SLICE, TILE and TRANSPOSE.
    pub(crate) fn layout(&mut self, op: TosaOp, row: usize) -> Result<NodeSpec, Skip> {
        let e = Synth::operand_elem(op, row, "input1")?;
        let need = self.any_need(e);
        let x = self.value_of_rank(e, None, &need);
        let s = self.shape_of(x);
        let mut n = NodeSpec::new(op, row);
        match op {
            TosaOp::Pad => {
                let mut padding: Vec<i64> = (0..2 * s.len()).map(|_| self.dice.range_i64(0, 2)).collect();
                if let Some(a) = self.wide_axis(s.len()) {
                    // One side of one axis padded by up to 8192, within the element limits.
                    let room = self.max_extent(&s, a).saturating_sub(u64::from(s[a])) as i64;
                    let side = 2 * a + self.dice.below(2);
                    padding[side] = self.wide_pick(0, i64::from(LEVEL_8K)).min(room.max(0));
                    padding[side ^ 1] = 0;
                }
                let out = |p: &[i64]| -> Vec<u32> {
                    s.iter().enumerate().map(|(i, &d)| (i64::from(d) + p[2 * i] + p[2 * i + 1]) as u32).collect()
                };
                let mut i = 0;
                while !self.fits(&out(&padding)) && i < padding.len() {
                    padding[i] = 0;
                    i += 1;
                }
                if padding.iter().any(|&p| p >= i64::from(LEVEL_8K / 2)) {
                    self.op_feature("attr:pad-padding>=4096");
                }
                let spec = self.default_data(e, Domain::any(e));
                let pad = data::generate(&mut self.rng, e, &[1], &spec).to_bits();
                n.arg(Arg::Val(x));
                n.arg(Arg::Ints(padding));
                n.arg(Arg::Tensor(e, pad));
            }
            TosaOp::Reshape => {
                let count = elements(&s);
                let rank = self.random_rank();
                let shape = self.factorize(count, rank);
                if shape.len() != s.len() {
                    self.op_feature("reshape:rank-change");
                }
                n.arg(Arg::Val(x));
                n.arg(Arg::Ints(shape.into_iter().map(i64::from).collect()));
            }
            TosaOp::Slice => {
                let mut start = Vec::new();
                let mut size = Vec::new();
                for &d in &s {
                    let sz = self.dice.range_u32(1, d);
                    start.push(i64::from(self.dice.range_u32(0, d - sz)));
                    size.push(i64::from(sz));
                }
                n.arg(Arg::Val(x));
                n.arg(Arg::Ints(start));
                n.arg(Arg::Ints(size));
            }
            TosaOp::Tile => {
                let mut multiples: Vec<u32> = s.iter().map(|_| self.dice.range_u32(1, 3)).collect();
                if let Some(a) = self.wide_axis(s.len()) {
                    // One axis tiled up to 8192 times, within the element limits.
                    multiples.iter_mut().for_each(|m| *m = 1);
                    let room = (self.max_extent(&s, a) / u64::from(s[a].max(1))).max(1) as i64;
                    multiples[a] = self.wide_pick(1, i64::from(LEVEL_8K)).min(room) as u32;
                }
                let out = |m: &[u32]| s.iter().zip(m).map(|(&d, &k)| d.saturating_mul(k)).collect::<Vec<u32>>();
                let mut i = 0;
                while !self.fits(&out(&multiples)) && i < multiples.len() {
                    multiples[i] = 1;
                    i += 1;
                }
                if multiples.iter().any(|&m| m >= LEVEL_8K / 2) {
                    self.op_feature("attr:tile-multiples>=4096");
                }
                n.arg(Arg::Val(x));
                n.arg(Arg::Ints(multiples.into_iter().map(i64::from).collect()));
            }
            _ => {
                let mut perms: Vec<i64> = (0..s.len() as i64).collect();
                self.dice.shuffle(&mut perms);
                n.arg(Arg::Ints(perms));
                n.arg(Arg::Val(x));
            }
        }
        Ok(n)
    }

    /// `count` split into `rank` dimensions whose product is `count`: each
    /// prime factor goes to a random dimension.
    pub(crate) fn factorize(&mut self, count: u64, rank: u32) -> Vec<u32> {
        let rank = rank.max(1) as usize;
        let mut dims = vec![1u64; rank];
        let mut rest = count.max(1);
        let mut p = 2u64;
        while p * p <= rest {
            while rest % p == 0 {
                let i = self.dice.below(rank);
                dims[i] *= p;
                rest /= p;
            }
            p += 1;
        }
        if rest > 1 {
            let i = self.dice.below(rank);
            dims[i] *= rest;
        }
        dims.into_iter().map(|d| d.min(u64::from(u32::MAX)) as u32).collect()
    }
}

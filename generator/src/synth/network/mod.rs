//! Graphs shaped like real networks (`Config::network`): a stem on a large
//! NHWC graph input, then blocks (convolution, depthwise-separable,
//! residual, inception-like branches joined by CONCAT, normalisation,
//! squeeze-excitation, attention, pooling, space-to-depth and channel
//! shuffles, upsampling), then a classifier head.
//!
//! Blocks emit their operators through the same `add_node` as random growth,
//! so every instruction is checked against the catalogue (`infer_shapes`,
//! `find_row`) and gets its value range from `transfer`; an operator whose
//! REQUIRE could fail is a generator bug recorded in `internal_errors`. What
//! is particular to networks is the plan: attributes that keep the spatial
//! structure ("same" padding made exact for the stride), weights scaled by
//! their fan-in so activations stay of order one, requantisation
//! multipliers chosen from the accumulators' typical spread, and a budget
//! of elements and multiply-accumulates per graph.

mod blocks;
mod float;
mod quant;
mod special;

use super::node::{Arg, NodeSpec, Skip};
use super::{elements, Synth};
use crate::data::Summary;
use crate::network::Network;
use crate::range::Range;
use spvgraph_ir::elem::{ElemType, Profile};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{RoundingMode, TosaOp};
use std::collections::BTreeMap;

/// Operators the body leaves, below the graph's target, for its head.
const HEAD_RESERVE: usize = 12;

/// Most operators the head adds besides its dense layers (pooling 3,
/// RESHAPE 1, logits with a bounded activation 7, softmax 6; the int8
/// head's dequantisation and softmax are 10) and the special-value branch
/// (8): a block is drawn only if it leaves this many under `max_nodes`.
pub(crate) const TAIL_MAX: usize = 17 + 8;

/// Most operators of one dense layer of the head (MATMUL, ADD and a
/// five-operator activation).
const DENSE_MAX: usize = 7;

/// Element types of a network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum NetKind {
    /// Floating-point activations and weights of one type.
    Float(ElemType),
    /// int8 activations and weights, int32 accumulators, RESCALE between.
    Quant,
}

/// What a quantised value's data looks like: its zero point and the
/// typical distance of its elements from it (used to choose requantisation
/// multipliers that keep the next tensor spread over the int8 range,
/// instead of mapping the conservative interval bound, which would squeeze
/// the real values to a few codes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct QInfo {
    pub zp: i64,
    pub spread: f64,
}

/// The state of one network graph under construction.
pub(crate) struct Net<'n> {
    pub cfg: &'n Network,
    pub kind: NetKind,
    /// Multiply-accumulates of the dot-product operators so far.
    pub macs: u64,
    /// The operator count the graph aims at.
    pub target: usize,
    /// Zero point and spread of quantised values, by value index.
    pub quant: BTreeMap<usize, QInfo>,
    /// The rounding mode of the network's RESCALEs (one per network, as a
    /// converter emits them; DOUBLE_ROUND falls back to SINGLE_ROUND where
    /// the multiplier is 16 bits wide).
    pub rounding: RoundingMode,
}

impl Net<'_> {
    /// The activation element type.
    pub(crate) fn elem(&self) -> ElemType {
        match self.kind {
            NetKind::Float(e) => e,
            NetKind::Quant => ElemType::I8,
        }
    }

    /// Quantisation of value `v` (zero point 0, a mid spread when unknown).
    pub(crate) fn q(&self, v: usize) -> QInfo {
        self.quant.get(&v).copied().unwrap_or(QInfo { zp: 0, spread: 48.0 })
    }
}

/// A kind of block a trunk grows by (floating-point or quantised): how
/// often it is drawn, and the most operators it emits (a kind that would
/// crowd out the head is not drawn).
pub(crate) trait BlockKind: Copy {
    /// How often the block is drawn, relative to the others.
    fn weight(self) -> u32;
    /// Most operators the block emits.
    fn max_ops(self) -> usize;
}

/// A trunk value's shape and channel counts as a block sees them.
pub(crate) struct Trunk {
    /// Its shape (NHWC for image-like trunks).
    pub(crate) shape: Vec<u32>,
    /// Its channels (the last of four dimensions; 1 otherwise).
    pub(crate) channels: u32,
    /// The channels a block may widen it to: doubled, up to 256, while the
    /// trunk's elements leave room in the graph's element share.
    pub(crate) wider: u32,
}

impl Synth<'_, '_> {
    /// Builds one network-shaped graph, or a randomly grown one when the
    /// enabled operators and profiles cannot make a network.
    pub(crate) fn build_network_graph(&mut self, cfg: &Network) {
        let Some(kind) = self.network_kind(cfg) else {
            // The enabled operators and profiles cannot make a network.
            self.feature("net:fallback-random");
            self.build_graph();
            return;
        };
        self.start_debug();
        let lo = self.cfg.min_nodes;
        let hi = self.cfg.max_nodes.max(lo);
        let target = self.dice.range_u32(lo, hi) as usize;
        let rounding = self.network_rounding();
        let mut net = Net { cfg, kind, macs: 0, target, quant: BTreeMap::new(), rounding };
        self.feature(match kind {
            NetKind::Float(e) => format!("net:float-{e}"),
            NetKind::Quant => "net:quantized-i8".to_string(),
        });
        let stem = match kind {
            NetKind::Float(_) => self.float_stem(&mut net),
            NetKind::Quant => self.quant_stem(&mut net),
        };
        if let Some(mut trunk) = stem {
            let mut failures = 0;
            while self.g.nodes + HEAD_RESERVE < target && failures < 12 {
                match self.network_block(&mut net, trunk) {
                    Some(t) => {
                        trunk = t;
                        failures = 0;
                    }
                    None => failures += 1,
                }
            }
            if matches!(kind, NetKind::Float(_)) && self.dice.chance(cfg.special_branch) {
                self.special_branch(&mut net, trunk);
            }
            self.network_head(&mut net, trunk);
        } else {
            // No stem fits the budgets (a configuration with tiny ones):
            // operator-by-operator growth instead.
            self.feature("net:fallback-random");
            self.grow(target);
        }
        self.meta.nodes += self.g.nodes;
        self.finish_graph();
    }

    /// SINGLE_ROUND mostly; DOUBLE_ROUND (TFLite's requantisation) and
    /// INEXACT_ROUND when their extensions are enabled.
    fn network_rounding(&mut self) -> RoundingMode {
        let r = self.dice.below(10);
        if r < 3 && self.enabled(Profile::ExtDoubleRound) {
            RoundingMode::DoubleRound
        } else if r == 3 && self.enabled(Profile::ExtInexactRound) {
            RoundingMode::InexactRound
        } else {
            RoundingMode::SingleRound
        }
    }

    /// Float (fp32, fp16, bf16 as the profiles allow) or quantised.
    fn network_kind(&mut self, cfg: &Network) -> Option<NetKind> {
        let quant_ok = self.enabled(Profile::ProInt)
            && self.ops.contains(&TosaOp::Conv2d)
            && self.ops.contains(&TosaOp::Rescale)
            && self.has_row(TosaOp::Conv2d, &[ElemType::I8, ElemType::I8, ElemType::I32], ElemType::I32);
        let mut floats = Vec::new();
        for (e, weight) in [(ElemType::Fp32, 6), (ElemType::Fp16, 3), (ElemType::Bf16, 1)] {
            if self.ops.contains(&TosaOp::Conv2d) && self.has_row(TosaOp::Conv2d, &[e, e, e], e) {
                floats.extend(std::iter::repeat_n(e, weight));
            }
        }
        if quant_ok && (floats.is_empty() || self.dice.chance(cfg.quantized)) {
            return Some(NetKind::Quant);
        }
        self.dice.pick(&floats).map(|&e| NetKind::Float(e))
    }

    /// One block on the trunk `t`; the new trunk, or `None` when the block
    /// could not be built (then nothing of it, or only a dead part, was
    /// emitted).
    fn network_block(&mut self, net: &mut Net, t: usize) -> Option<usize> {
        if self.ops_left(6) {
            return None;
        }
        let elems = self.trunk_elements(t);
        let share = self.element_share(net);
        let s = self.shape_of(t);
        let spatial = s.get(1).copied().unwrap_or(1).min(s.get(2).copied().unwrap_or(1));
        // Too big for what the budget leaves per operator: shrink first.
        if elems > share && spatial >= 4 {
            if let Some(v) = self.downsample(net, t) {
                return Some(v);
            }
        }
        match net.kind {
            NetKind::Float(_) => self.float_block(net, t),
            NetKind::Quant => self.quant_block(net, t),
        }
    }

    /// A block kind drawn by weight among `all`, leaving out those whose
    /// operators would not fit ([`Synth::ops_left`]); `None` when none fits.
    pub(crate) fn draw_block<B: BlockKind>(&mut self, all: impl IntoIterator<Item = B>) -> Option<B> {
        let blocks: Vec<B> = all.into_iter().filter(|b| !self.ops_left(b.max_ops())).collect();
        let total: u32 = blocks.iter().map(|b| b.weight()).sum();
        let mut pick = self.dice.range_u32(0, total.max(1) - 1);
        let mut block = *blocks.first()?;
        for b in blocks {
            if pick < b.weight() {
                block = b;
                break;
            }
            pick -= b.weight();
        }
        Some(block)
    }

    /// The trunk `t` as the next block sees it.
    pub(crate) fn trunk(&self, net: &Net, t: usize) -> Trunk {
        let shape = self.shape_of(t);
        let channels = shape.get(3).copied().unwrap_or(1);
        let grow = self.trunk_elements(t).saturating_mul(2) <= self.element_share(net);
        let wider = if grow { (channels * 2).min(256) } else { channels };
        Trunk { shape, channels, wider }
    }

    // ---- budgets -------------------------------------------------------------------

    /// Whether a block of up to `ops` operators would leave too few under
    /// `max_nodes` for the head ([`TAIL_MAX`]).
    pub(crate) fn ops_left(&self, ops: usize) -> bool {
        self.g.nodes + ops + TAIL_MAX > self.cfg.max_nodes as usize
    }

    /// Dense layers for the head while the graph is short of its target:
    /// each leaves room under `max_nodes` for the logits and softmax
    /// (`tail_max` operators), and they stop once those (at least
    /// `tail_min`) will reach the target.
    pub(crate) fn wants_dense(&self, net: &Net, tail_min: usize, tail_max: usize) -> bool {
        let target = net.target.max(self.cfg.min_nodes as usize);
        self.g.nodes + tail_min < target && self.g.nodes + DENSE_MAX + tail_max <= self.cfg.max_nodes as usize
    }

    /// Elements of value `v`.
    pub(crate) fn trunk_elements(&self, v: usize) -> u64 {
        elements(&self.shape_of(v))
    }

    /// The elements one more operator may create and still leave room, at
    /// that rate, for the operators the graph still aims at.
    pub(crate) fn element_share(&self, net: &Net) -> u64 {
        let left = self.cfg.max_graph_elements.saturating_sub(self.g.elements);
        let ops = net.target.saturating_sub(self.g.nodes).max(1) as u64;
        left / ops
    }

    /// Whether new tensors of `count` elements in all fit the graph's budget.
    pub(crate) fn room(&self, count: u64) -> bool {
        self.g.elements.saturating_add(count) <= self.cfg.max_graph_elements
            && count <= self.cfg.max_tensor_elements.saturating_mul(4)
    }

    /// Whether `macs` more multiply-accumulates fit the graph's budget.
    pub(crate) fn mac_room(&self, net: &Net, macs: u64) -> bool {
        net.macs.saturating_add(macs) <= net.cfg.max_macs
    }

    // ---- rows and emission -----------------------------------------------------------

    /// Whether `op` has an available row with tensor operands `ins` (in
    /// operand order, a prefix) and result `out`.
    pub(crate) fn has_row(&self, op: TosaOp, ins: &[ElemType], out: ElemType) -> bool {
        !self.rows_matching(op, ins, out).is_empty()
    }

    fn rows_matching(&self, op: TosaOp, ins: &[ElemType], out: ElemType) -> Vec<usize> {
        if !self.ops.contains(&op) {
            return Vec::new();
        }
        let slot = op.spec().result.slot;
        self.rows
            .iter()
            .filter(|r| r.op == op && r.tensor_operands.len() >= ins.len())
            .filter(|r| r.tensor_operands.iter().zip(ins).all(|(&(e, _), &want)| e == want))
            .filter(|r| Synth::row(op, r.row).ok().and_then(|t| t.slot(slot)) == Some(out))
            .map(|r| r.row)
            .collect()
    }

    /// An available row of `op` (one of several, e.g. fp16 convolutions
    /// accumulating in fp16 or fp32, drawn at random).
    pub(crate) fn net_row(&mut self, op: TosaOp, ins: &[ElemType], out: ElemType) -> Option<usize> {
        let rows = self.rows_matching(op, ins, out);
        self.dice.pick(&rows).copied()
    }

    /// Checks and emits `n`; the index of its result, or `None` (over the
    /// budget, or a generator invariant broke: recorded).
    pub(crate) fn net_emit(&mut self, n: NodeSpec) -> Option<usize> {
        let op = n.op;
        let row = n.row;
        let result = match self.add_node(n) {
            Ok(()) => Some(self.g.values.len() - 1),
            Err(Skip::Budget) => None,
            Err(Skip::Internal(e)) => {
                self.meta.internal_errors.push(format!("{op} row {row} (network): {e}"));
                None
            }
        };
        self.end_op();
        result
    }

    /// A one-input operator without attributes (SIGMOID, TANH, ERF, EXP,
    /// RSQRT, RECIPROCAL, ABS, CAST).
    pub(crate) fn net_unary(&mut self, op: TosaOp, x: usize, out: ElemType) -> Option<usize> {
        let e = self.value(x)?.elem;
        let row = self.net_row(op, &[e], out)?;
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::Val(x));
        self.net_emit(n)
    }

    /// ADD or SUB of two values (broadcasting).
    pub(crate) fn net_binary(&mut self, op: TosaOp, a: usize, b: usize) -> Option<usize> {
        let e = self.value(a)?.elem;
        let row = self.net_row(op, &[e, e], e)?;
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::Val(a));
        n.arg(Arg::Val(b));
        self.net_emit(n)
    }

    /// MUL of two floating-point values (shift 0).
    pub(crate) fn net_mul(&mut self, a: usize, b: usize) -> Option<usize> {
        let e = self.value(a)?.elem;
        let row = self.net_row(TosaOp::Mul, &[e, e], e)?;
        let mut n = NodeSpec::new(TosaOp::Mul, row);
        n.arg(Arg::Val(a));
        n.arg(Arg::Val(b));
        n.arg(Arg::Tensor(ElemType::I8, vec![0]));
        self.net_emit(n)
    }

    /// MAXIMUM or MINIMUM with a NaN mode.
    pub(crate) fn net_minmax(&mut self, op: TosaOp, a: usize, b: usize) -> Option<usize> {
        let e = self.value(a)?.elem;
        let row = self.net_row(op, &[e, e], e)?;
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::U32(self.nan_mode()));
        n.arg(Arg::Val(a));
        n.arg(Arg::Val(b));
        self.net_emit(n)
    }

    /// REDUCE_SUM (or REDUCE_MAX with a NaN mode) along `axis`.
    pub(crate) fn net_reduce(&mut self, op: TosaOp, x: usize, axis: u32) -> Option<usize> {
        let e = self.value(x)?.elem;
        let row = self.net_row(op, &[e], e)?;
        let mut n = NodeSpec::new(op, row);
        n.arg(Arg::U32(axis));
        if op != TosaOp::ReduceSum {
            n.arg(Arg::U32(self.nan_mode()));
        }
        n.arg(Arg::Val(x));
        self.net_emit(n)
    }

    /// RESHAPE to `shape`.
    pub(crate) fn net_reshape(&mut self, x: usize, shape: &[u32]) -> Option<usize> {
        let e = self.value(x)?.elem;
        let row = self.net_row(TosaOp::Reshape, &[e], e)?;
        let mut n = NodeSpec::new(TosaOp::Reshape, row);
        n.arg(Arg::Val(x));
        n.arg(Arg::Ints(shape.iter().map(|&d| i64::from(d)).collect()));
        self.net_emit(n)
    }

    /// TRANSPOSE by `perms`.
    pub(crate) fn net_transpose(&mut self, x: usize, perms: &[i64]) -> Option<usize> {
        let e = self.value(x)?.elem;
        let row = self.net_row(TosaOp::Transpose, &[e], e)?;
        let mut n = NodeSpec::new(TosaOp::Transpose, row);
        n.arg(Arg::Ints(perms.to_vec()));
        n.arg(Arg::Val(x));
        self.net_emit(n)
    }

    /// CONCAT of `parts` along `axis`.
    pub(crate) fn net_concat(&mut self, parts: &[usize], axis: u32) -> Option<usize> {
        let e = self.value(*parts.first()?)?.elem;
        let row = self.net_row(TosaOp::Concat, &[e], e)?;
        let mut n = NodeSpec::new(TosaOp::Concat, row);
        n.arg(Arg::U32(axis));
        for &p in parts {
            n.arg(Arg::Val(p));
        }
        self.net_emit(n)
    }

    // ---- leaves ------------------------------------------------------------------------

    /// `values` (in `elem`'s encoding) as a tensor of `shape`.
    pub(crate) fn net_tensor(elem: ElemType, shape: &[u32], bits: &[u64]) -> TensorData {
        let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
        TensorData::from_bits(elem, &dims, bits).unwrap_or_else(|_| TensorData::zeros(elem, &dims))
    }

    /// A leaf holding `bits`: a graph input (`input`, while the graph has
    /// room for one), else a constant in one of its legal forms.
    pub(crate) fn net_leaf(&mut self, elem: ElemType, shape: &[u32], bits: &[u64], input: bool) -> usize {
        let data = Synth::net_tensor(elem, shape, bits);
        let summary = Summary::of_bits(elem, bits);
        let input = input && self.g.inputs < self.cfg.max_graph_inputs as usize;
        let special = elem.is_float() && self.note_specials(&summary, !input);
        self.push_leaf(elem, shape, data, summary.range, special, !input)
    }

    /// A weight or bias: a constant, or (`1 - weight_constant`) a graph input.
    pub(crate) fn net_weight(&mut self, elem: ElemType, shape: &[u32], bits: &[u64]) -> usize {
        let input = !self.dice.chance(self.cfg.probs.weight_constant);
        self.net_leaf(elem, shape, bits, input)
    }

    /// A floating-point constant of rank `rank` holding one value (a
    /// broadcast operand: 1/C, epsilon, 0.5, ...).
    pub(crate) fn net_scalar(&mut self, elem: ElemType, rank: usize, v: f64) -> usize {
        let bits = [crate::floats::encode(elem, v)];
        self.net_leaf(elem, &vec![1; rank], &bits, false)
    }

    /// `count` values uniform in `[lo, hi]`, encoded in `elem`.
    pub(crate) fn uniform_bits(&mut self, elem: ElemType, count: usize, lo: f64, hi: f64) -> Vec<u64> {
        (0..count).map(|_| crate::floats::encode(elem, lo + (hi - lo) * self.rng.unit())).collect()
    }

    /// `count` integers uniform in `lo..=hi`, as raw bits.
    pub(crate) fn int_bits(&mut self, count: usize, lo: i64, hi: i64) -> Vec<u64> {
        (0..count).map(|_| self.rng.range_i64(lo, hi) as u64).collect()
    }

    /// Replaces the range of the square `MUL(d, d)` (emitted as value `sq`)
    /// by the tighter one squares have: interval multiplication does not
    /// know both factors are the same value and would let a variance be
    /// negative, and RSQRT needs it not to be.
    pub(crate) fn tighten_square(&mut self, sq: usize) {
        let Some(v) = self.g.values.get_mut(sq) else { return };
        if let Range::Float { lo, hi, nan } = v.range {
            let m = lo.abs().max(hi.abs());
            let bottom = if lo <= 0.0 && hi >= 0.0 { 0.0 } else { lo.abs().min(hi.abs()) };
            let top = crate::floats::round(v.elem, m * m);
            v.range = Range::Float { lo: crate::floats::round(v.elem, bottom * bottom), hi: top, nan };
        }
    }
}
